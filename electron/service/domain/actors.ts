/**
 * Who makes a change, as recorded on the rules it writes (`updatedBy`): a signed-in
 * administrator's username on a team server, or one of these. The HTTP layer names it
 * (http/console-gate.ts `actorOf`) and every change of rules carries it to the store through the
 * one path of rule changes (rule-changes.ts).
 * @module
 */

/** The desktop editor and plain `npm run serve` (the per-launch token). */
export const EDITOR_ACTOR = 'editor';
/** The openapi interface (signed requests). */
export const API_ACTOR = 'api';
