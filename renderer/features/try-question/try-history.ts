/** Questions tried per robot, newest first, kept in localStorage. */
const MAX = 30;

function key(tenantId: number, robotId: string): string {
  return `kb-studio.try-history.${tenantId}.${robotId}`;
}

export function readHistory(tenantId: number, robotId: string): string[] {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(key(tenantId, robotId)) ?? '[]');
    return Array.isArray(value) ? value.filter((q): q is string => typeof q === 'string') : [];
  } catch {
    return [];
  }
}

export function addToHistory(tenantId: number, robotId: string, question: string): string[] {
  const next = [question, ...readHistory(tenantId, robotId).filter((q) => q !== question)].slice(
    0,
    MAX,
  );
  localStorage.setItem(key(tenantId, robotId), JSON.stringify(next));
  return next;
}

export function clearHistory(tenantId: number, robotId: string): void {
  localStorage.removeItem(key(tenantId, robotId));
}
