import { z } from 'zod';

/**
 * The agent's action space. Validated with zod where actions cross a process or model boundary (the
 * command adapter, tool-call arguments); built-in agents construct them typed.
 */
export const FileWriteSchema = z.object({ path: z.string().min(1), content: z.string() }).strict();
export type FileWrite = z.infer<typeof FileWriteSchema>;

export const ActionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('clarify'), question: z.string().min(1) }).strict(),
  z
    .object({
      type: z.literal('implement'),
      files: z.array(FileWriteSchema).default([]),
      deletes: z.array(z.string()).default([]),
    })
    .strict(),
  z
    .object({
      type: z.literal('verify'),
      path: z.string().default('/'),
      /** What to check: with criteria (and a model to audit with) the verify is an interactive audit, not a screenshot. */
      criteria: z.string().trim().min(1).optional(),
    })
    .strict(),
  z.object({ type: z.literal('submit') }).strict(),
]);
export type Action = z.infer<typeof ActionSchema>;
export type ActionType = Action['type'];

/** What the agent is told after each step; every observation says how many steps are left. */
export type Observation =
  | { type: 'start'; instruction: string; stepsLeft: number }
  | { type: 'answer'; question: string; answer: string; stepsLeft: number }
  | {
      type: 'implemented';
      written: string[];
      deleted: string[];
      /** Writes the workspace refused (outside the folder, over a limit). */
      errors: string[];
      /** Install, build or server start failures: what a developer would see in the terminal. */
      siteErrors: string[];
      /** What the browser reported when the home page was loaded after the write. */
      consoleErrors: string[];
      stepsLeft: number;
    }
  | {
      type: 'verified';
      path: string;
      title: string;
      screenshotPng: Buffer;
      /** Relative to the episode folder, as the trajectory records it. */
      screenshotFile: string;
      /** Absolute, for agents that read the picture from disk (the command protocol). */
      screenshotPath: string;
      consoleErrors: string[];
      siteErrors: string[];
      /** Present when the verify carried criteria and was audited; the screenshot is then the audit's last frame. */
      audit?: AuditResult;
      stepsLeft: number;
    }
  | { type: 'error'; message: string; stepsLeft: number };

/** What an audited verify tells the agent. */
export interface AuditResult {
  passed: boolean;
  /** The copilot's findings, as the agent reads them. */
  report: string;
  /** Failed audits in a row, this one included (0 after a pass), and how many end the episode. */
  failedInARow: number;
  failureLimit: number;
}

/** Token use an adapter reports for one step, so the trajectory can total cost per role. */
export interface StepUsage {
  promptTokens: number;
  completionTokens: number;
  /** The provider gave no usage for some call of the step (llm/usage.ts TokenUsage.unknown). */
  unknown?: boolean;
}
