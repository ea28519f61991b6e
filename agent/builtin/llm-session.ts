import type { Browser } from '@playwright/test';
import type { ModelClient } from '../../llm/client.js';
import type { ChatMessage, ContentPart, ToolCall } from '../../llm/types.js';
import type { Observation, StepUsage } from '../actions.js';
import type { ObservationView } from './observation-text.js';
import { copilotRequest, type AgentPrompts } from './prompts.js';
import { PROTOCOLS, type Protocol } from './protocols.js';
import type { AgentSession, Decision } from '../types.js';
import { stepUsageOf } from '../step-usage.js';

export interface LlmSessionOptions {
  client: ModelClient;
  /** When set, the agent is treated as text-only: screenshots go to this model, its description to the agent. */
  copilot?: ModelClient;
  protocol: Protocol;
  prompts: AgentPrompts;
  maxTokens?: number;
  /** For the paper protocol: shrinks audit frames to JPEG, as the paper sends them. */
  browser?: Browser;
}

const OMITTED_SCREENSHOT = '[an earlier screenshot, removed to keep the conversation short]';

/**
 * One episode's conversation with the model, a ReAct loop: each observation is appended to the history
 * and the model's reply is read as exactly one action. With tool calling, the call is answered with a
 * `tool` message (as the API requires for every call id) and a screenshot follows as a user message,
 * since tool messages carry text only. Errors from the model client (endpoint down after retries, a
 * rejected request) are not caught here: they end the episode as errored, never as a poor site.
 */
export class LlmSession implements AgentSession {
  private readonly messages: ChatMessage[] = [];
  private pendingCalls: ToolCall[] = [];
  /** Things the model should hear with the next observation (ignored shell actions). */
  private remarks: string[] = [];
  private instruction = '';

  constructor(private readonly options: LlmSessionOptions) {}

  /** The conversation so far, for tests and debugging. */
  history(): readonly ChatMessage[] {
    return this.messages;
  }

  async next(observation: Observation): Promise<Decision> {
    const { client } = this.options;
    const protocol = PROTOCOLS[this.options.protocol];
    if (observation.type === 'start') this.instruction = observation.instruction;
    const view = await protocol.view(observation, this.options.browser);
    let copilotUsage: StepUsage | undefined;
    if (view.image && this.options.copilot && protocol.copilotDescribes) {
      const described = await this.describe(view.image);
      view.text += `\n\nWhat the screenshot shows (described by a vision model, since you cannot see images):\n${described.text}`;
      copilotUsage = described.usage;
      delete view.image;
    }
    this.append(observation, view);

    const result = await client.chat(this.messages, {
      ...(protocol.tools ? { tools: protocol.tools, toolChoice: 'auto' as const } : {}),
      ...(this.options.maxTokens !== undefined ? { maxTokens: this.options.maxTokens } : {}),
    });
    this.messages.push({ role: 'assistant', content: result.content, ...(result.toolCalls.length ? { toolCalls: result.toolCalls } : {}) });
    this.pendingCalls = result.toolCalls;

    const read = protocol.read(result, result.finishReason === 'length', this.instruction);
    if (read.remarks) this.remarks = read.remarks;
    const parsed = read.decision;
    const note = (result.content ?? '').trim().slice(0, 2000);
    // The client sets a leading think block (or the server's reasoning field) aside before the reply is
    // read; it is the model's reasoning all the same, so the trajectory keeps it whatever the protocol.
    const reasoning = [result.reasoning, parsed.reasoning].filter(Boolean).join('\n\n').slice(0, 8000);
    return {
      ...parsed,
      ...(reasoning ? { reasoning } : {}),
      usage: stepUsageOf(result.usage),
      ...(copilotUsage ? { copilotUsage } : {}),
      ...(note ? { note } : {}),
    };
  }

  private append(observation: Observation, view: ObservationView): void {
    if (observation.type === 'start') {
      this.messages.length = 0;
      this.messages.push({ role: 'system', content: this.options.prompts.system }, { role: 'user', content: view.text });
      return;
    }
    const text = [...this.remarks, view.text].join('\n\n');
    this.remarks = [];
    if (view.image) this.dropOldScreenshots(PROTOCOLS[this.options.protocol].imagesKept - 1);
    const picture: ContentPart[] = view.image ? [{ type: 'image', url: view.image.url, detail: view.image.detail ?? 'auto' }] : [];
    if (this.pendingCalls.length > 0) {
      // Every call id needs its answer; when several were made none ran, and each hears why.
      for (const call of this.pendingCalls) this.messages.push({ role: 'tool', toolCallId: call.id, content: text });
      if (picture.length) this.messages.push({ role: 'user', content: [{ type: 'text', text: `Screenshot of ${view.image!.path}:` }, ...picture] });
    } else {
      this.messages.push({ role: 'user', content: picture.length ? [{ type: 'text', text }, ...picture] : text });
    }
    this.pendingCalls = [];
  }

  /**
   * Screenshots are the largest part of the context, and only the latest one says how the page looks now;
   * `keep` earlier ones stay (the paper's harness keeps the last three pictures in all).
   */
  private dropOldScreenshots(keep: number): void {
    let kept = 0;
    for (const m of [...this.messages].reverse()) {
      if (m.role !== 'user' || typeof m.content === 'string') continue;
      m.content = [...m.content].reverse().map((p) => (p.type === 'image' && kept++ >= keep ? { type: 'text' as const, text: OMITTED_SCREENSHOT } : p)).reverse();
    }
  }

  private async describe(image: NonNullable<ObservationView['image']>): Promise<{ text: string; usage: StepUsage }> {
    const copilot = this.options.copilot!;
    const r = await copilot.chat([
      { role: 'system', content: this.options.prompts.copilot },
      { role: 'user', content: [{ type: 'text', text: copilotRequest(image.path, image.title) }, { type: 'image', url: image.url, detail: 'high' }] },
    ]);
    const text = (r.content ?? '').trim() || '(the vision model returned no description)';
    return { text, usage: stepUsageOf(r.usage) };
  }
}
