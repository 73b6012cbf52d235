/**
 * Evaluation dataset format (see /work/shared/data/README.md) and loading.
 * @module
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

export interface EvalRule {
  ruleName: string;
  questions: string[];
}

export interface EvalQuery {
  question: string;
  ruleName: string | null;
}

export interface EvalDataset {
  name: string;
  language: string;
  rules: EvalRule[];
  queries: EvalQuery[];
  oosQueries?: EvalQuery[];
}

export function loadDataset(path: string): EvalDataset {
  const data = JSON.parse(readFileSync(path, 'utf8')) as Partial<EvalDataset>;
  if (!Array.isArray(data.rules) || !Array.isArray(data.queries)) {
    throw new Error(`${path}: expected { rules: [...], queries: [...] }`);
  }
  return {
    name: data.name ?? basename(path, '.json'),
    language: data.language ?? 'unknown',
    rules: data.rules,
    queries: data.queries,
    ...(data.oosQueries !== undefined ? { oosQueries: data.oosQueries } : {}),
  };
}
