/** The screen shown, kept in the address's hash so a reload returns to it. */
export type Route =
  | { kind: 'home' }
  | { kind: 'tenant'; tenantId: number }
  /**
   * `ruleId`: a rule to show in the grid; `tryQuestion`: a question to ask in the try pane (links
   * from another screen).
   */
  | { kind: 'robot'; tenantId: number; robotId: string; ruleId?: string; tryQuestion?: string }
  | { kind: 'robot-settings'; tenantId: number; robotId: string }
  | { kind: 'robot-publishing'; tenantId: number; robotId: string }
  | { kind: 'robot-inbox'; tenantId: number; robotId: string }
  | { kind: 'robot-dashboard'; tenantId: number; robotId: string }
  | { kind: 'api' }
  | { kind: 'trash' };

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  if (parts[0] === 'api') return { kind: 'api' };
  if (parts[0] === 'trash') return { kind: 'trash' };
  if (parts[0] === 'tenants' && parts[1] && /^\d+$/.test(parts[1])) {
    const tenantId = Number(parts[1]);
    if (parts[2] === 'robots' && parts[3]) {
      const robotId = parts[3];
      if (parts[4] === 'settings') return { kind: 'robot-settings', tenantId, robotId };
      if (parts[4] === 'inbox') return { kind: 'robot-inbox', tenantId, robotId };
      if (parts[4] === 'dashboard') return { kind: 'robot-dashboard', tenantId, robotId };
      if (parts[4] === 'publishing') return { kind: 'robot-publishing', tenantId, robotId };
      if (parts[4] === 'rules' && parts[5])
        return { kind: 'robot', tenantId, robotId, ruleId: parts[5] };
      if (parts[4] === 'try' && parts[5])
        return { kind: 'robot', tenantId, robotId, tryQuestion: parts[5] };
      return { kind: 'robot', tenantId, robotId };
    }
    return { kind: 'tenant', tenantId };
  }
  return { kind: 'home' };
}

export function routeHash(route: Route): string {
  switch (route.kind) {
    case 'home':
      return '#/';
    case 'api':
      return '#/api';
    case 'trash':
      return '#/trash';
    case 'tenant':
      return `#/tenants/${route.tenantId}`;
    case 'robot': {
      const robot = `#/tenants/${route.tenantId}/robots/${encodeURIComponent(route.robotId)}`;
      if (route.ruleId) return `${robot}/rules/${encodeURIComponent(route.ruleId)}`;
      return route.tryQuestion ? `${robot}/try/${encodeURIComponent(route.tryQuestion)}` : robot;
    }
    case 'robot-settings':
      return `#/tenants/${route.tenantId}/robots/${encodeURIComponent(route.robotId)}/settings`;
    case 'robot-inbox':
      return `#/tenants/${route.tenantId}/robots/${encodeURIComponent(route.robotId)}/inbox`;
    case 'robot-dashboard':
      return `#/tenants/${route.tenantId}/robots/${encodeURIComponent(route.robotId)}/dashboard`;
    case 'robot-publishing':
      return `#/tenants/${route.tenantId}/robots/${encodeURIComponent(route.robotId)}/publishing`;
  }
}
