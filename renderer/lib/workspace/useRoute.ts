import { useCallback, useEffect, useState } from 'react';
import { mayLeave } from './leave-guard';
import { parseRoute, routeHash } from './route';
import type { Route } from './route';

export function useRoute(): [Route, (route: Route) => void] {
  const [route, setRoute] = useState<Route>(() => parseRoute(window.location.hash));
  useEffect(() => {
    const onHash = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const navigate = useCallback((next: Route) => {
    const go = () => {
      window.location.hash = routeHash(next);
      setRoute(next);
    };
    if (mayLeave(go)) go();
  }, []);
  return [route, navigate];
}
