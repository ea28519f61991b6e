import { z } from 'zod';

/**
 * The agent's action space. Validated with zod where actions cross a process or model boundary (the
 * command adapter, tool-call arguments); built-in agents construct them typed.
 */
export const FileWriteSchema = z.object({ path: z.string().min(1), content: z.string() }).strict();

export const ActionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('clarify'), question: z.string().min(1) }).strict(),
  z
    .object({
      type: z.literal('implement'),
      files: z.array(FileWriteSchema).default([]),
      deletes: z.array(z.string()).default([]),
    })
    .strict(),
  z.object({ type: z.literal('verify'), path: z.string().default('/') }).strict(),
  z.object({ type: z.literal('submit') }).strict(),
]);
export type Action = z.infer<typeof ActionSchema>;
export type ActionType = Action['type'];

/** What the agent is told after each step; every observation says how many steps are left. */
export type Observation =
  | { type: 'start'; instruction: string; stepsLeft: number }
  | { type: 'answer'; question: string; answer: string; stepsLeft: number }
  | { type: 'implemented'; written: string[]; deleted: string[]; errors: string[]; stepsLeft: number }
  | {
      type: 'verified';
      path: string;
      title: string;
      screenshotPng: Buffer;
      screenshotFile: string;
      consoleErrors: string[];
      stepsLeft: number;
    }
  | { type: 'error'; message: string; stepsLeft: number };

/** Token use an adapter reports for one step, so the trajectory can total cost per role. */
export interface StepUsage {
  promptTokens: number;
  completionTokens: number;
}
