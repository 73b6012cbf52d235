/**
 * The small-talk part of the settings page being edited (on or off, persona name, own answers):
 * saved with the rest of the page by its one save button (docs/decisions.md).
 * @module
 */
import { useState } from 'react';
import type { ConsoleRobot } from '../../../electron/service/console-types';
import type { RobotRef } from '../../api/console-client';
import { useWorkspace } from '../../lib/workspace/useWorkspace';

export type ChitChatForm = ReturnType<typeof useChitChatForm>;

/** The answers the user wrote (blank ones fall back to the built-in answer). */
const ownAnswers = (answers: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(answers).filter(([, text]) => text.trim() !== ''));

const sameAnswers = (a: Record<string, string>, b: Record<string, string>): boolean => {
  const left = Object.entries(ownAnswers(a));
  const right = ownAnswers(b);
  return left.length === Object.keys(right).length && left.every(([k, v]) => right[k] === v);
};

export function useChitChatForm(robotRef: RobotRef, robot: ConsoleRobot) {
  const { client } = useWorkspace();
  const saved = robot.settings;
  const [on, setOn] = useState(saved.chitChat);
  const [persona, setPersona] = useState(saved.persona);
  const [answers, setAnswers] = useState<Record<string, string>>(saved.chitChatAnswers);
  const differsFrom = (settings: ConsoleRobot['settings']) =>
    on !== settings.chitChat ||
    persona !== settings.persona ||
    !sameAnswers(answers, settings.chitChatAnswers);
  // The saved settings changed (a save, the robot's language and so its default persona): an
  // unedited part follows them.
  const [from, setFrom] = useState(saved);
  if (from !== saved) {
    setFrom(saved);
    if (!differsFrom(from)) {
      setOn(saved.chitChat);
      setPersona(saved.persona);
      setAnswers(saved.chitChatAnswers);
    }
  }
  const dirty = differsFrom(saved);
  return {
    on,
    persona,
    answers,
    dirty,
    setOn,
    setPersona,
    setAnswer: (key: string, text: string) => setAnswers({ ...answers, [key]: text }),
    /** Sends the changes (throws the service's problem). */
    save: async () => {
      await client.patchRobot(robotRef, {
        settings: { chitChat: on, persona, chitChatAnswers: ownAnswers(answers) },
      });
    },
    discard: () => {
      setOn(saved.chitChat);
      setPersona(saved.persona);
      setAnswers(saved.chitChatAnswers);
    },
  };
}
