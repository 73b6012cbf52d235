/**
 * A robot's managed list of categories: read (again after every change of its rules, as the
 * counts follow them), created, renamed, merged and deleted through the console API. The grid
 * files rules under them by id; pastes and imports name them.
 * @module
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ConsoleCategory } from '../../../electron/service/console-types';
import { ApiError } from '../../api/api-error';
import type { ConsoleClient, RobotRef } from '../../api/console-client';
import { categoryIndex } from '../../lib/rules/category-index';
import type { CategoryIndex } from '../../lib/rules/category-index';

export interface Categories {
  list: ConsoleCategory[];
  /** The list has been read once. */
  loaded: boolean;
  index: CategoryIndex;
  reload: () => Promise<ConsoleCategory[]>;
  create: (name: string) => Promise<ConsoleCategory>;
  rename: (categoryId: string, name: string) => Promise<void>;
  /** Files the rules of `from` under `into` and deletes the categories of `from`. */
  merge: (from: string[], into: string) => Promise<number>;
  /** Deletes a category; resolves with the number of its rules, now without a category. */
  remove: (categoryId: string) => Promise<number>;
  /** Makes the categories of these names that the robot lacks; resolves with the new index. */
  ensure: (names: readonly string[]) => Promise<CategoryIndex>;
}

/** `version` counts the changes of the robot's rules: the list is read again after each. */
export function useCategories(client: ConsoleClient, ref: RobotRef, version: number): Categories {
  const { tenantId, robotId } = ref;
  const [list, setList] = useState<ConsoleCategory[]>([]);
  const [loaded, setLoaded] = useState(false);
  const reads = useRef(0);

  const reload = useCallback(async () => {
    const turn = ++reads.current;
    const { categories } = await client.categories({ tenantId, robotId });
    // An older read answering late must not replace a newer one.
    if (turn === reads.current) {
      setList(categories);
      setLoaded(true);
    }
    return categories;
  }, [client, tenantId, robotId]);

  useEffect(() => {
    const timer = window.setTimeout(
      () => {
        reload().catch(() => {
          // Read again with the next change; the grid shows the names the rules came with.
        });
      },
      version === 0 ? 0 : 600,
    );
    return () => window.clearTimeout(timer);
  }, [reload, version]);

  const index = useMemo(() => categoryIndex(list), [list]);

  const create = useCallback(
    async (name: string) => {
      const made = await client.createCategory({ tenantId, robotId }, name);
      await reload();
      return made;
    },
    [client, tenantId, robotId, reload],
  );

  const rename = useCallback(
    async (categoryId: string, name: string) => {
      await client.renameCategory({ tenantId, robotId }, categoryId, name);
      await reload();
    },
    [client, tenantId, robotId, reload],
  );

  const merge = useCallback(
    async (from: string[], into: string) => {
      const { moved } = await client.mergeCategories({ tenantId, robotId }, from, into);
      await reload();
      return moved;
    },
    [client, tenantId, robotId, reload],
  );

  const remove = useCallback(
    async (categoryId: string) => {
      const { uncategorized } = await client.deleteCategory({ tenantId, robotId }, categoryId);
      await reload();
      return uncategorized;
    },
    [client, tenantId, robotId, reload],
  );

  const ensure = useCallback(
    async (names: readonly string[]) => {
      for (const name of names) {
        try {
          await client.createCategory({ tenantId, robotId }, name.trim());
        } catch (error) {
          // Made meanwhile (another window): it is there, which is all that is needed.
          if (!(error instanceof ApiError && error.code === 'category-name-taken')) throw error;
        }
      }
      return categoryIndex(await reload());
    },
    [client, tenantId, robotId, reload],
  );

  return { list, loaded, index, reload, create, rename, merge, remove, ensure };
}
