import type { MessageKey } from '../../i18n/types';

export interface Shortcut {
  keys: string[];
  description: MessageKey;
}

export interface ShortcutGroup {
  title: MessageKey;
  shortcuts: Shortcut[];
}

/** Every shortcut of the editor, as the help overlay lists them. */
export const SHORTCUT_GROUPS: ShortcutGroup[] = [
  {
    title: 'help.general',
    shortcuts: [
      { keys: ['F1 / ?'], description: 'help.showHelp' },
      { keys: ['Esc'], description: 'help.closeDialog' },
      { keys: ['Alt', 'L'], description: 'help.switchLanguage' },
    ],
  },
  {
    title: 'help.grid',
    shortcuts: [
      { keys: ['↑ ↓ ← → / Tab'], description: 'help.move' },
      { keys: ['Enter / F2'], description: 'help.edit' },
      { keys: ['Enter'], description: 'help.commit' },
      { keys: ['Shift', 'Enter'], description: 'help.newLine' },
      { keys: ['Esc'], description: 'help.cancelEdit' },
      { keys: ['Space'], description: 'help.toggleActive' },
      { keys: ['Shift', 'Space'], description: 'help.selectRow' },
      { keys: ['Ctrl', 'C'], description: 'help.copy' },
      { keys: ['Ctrl', 'V'], description: 'help.paste' },
    ],
  },
  {
    title: 'help.rules',
    shortcuts: [
      { keys: ['Insert'], description: 'help.addRule' },
      { keys: ['Ctrl', 'D'], description: 'help.duplicate' },
      { keys: ['Delete'], description: 'help.delete' },
      { keys: ['Ctrl', 'Z'], description: 'help.undo' },
      { keys: ['Ctrl', 'Y'], description: 'help.redo' },
      { keys: ['Ctrl', 'F'], description: 'help.search' },
      { keys: ['Alt', 'I'], description: 'help.import' },
      { keys: ['Alt', 'E'], description: 'help.export' },
      { keys: ['Alt', 'T'], description: 'help.try' },
    ],
  },
];
