/** What the fake server receives: its own module, so the server and its quirks both use it without importing each other. */

export interface FakeMessage {
  role: string;
  content?: string | null | Array<{ type: string; text?: string }>;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

export interface FakeRequestBody {
  model?: string;
  messages: FakeMessage[];
  response_format?: { type: string; json_schema?: { name: string; schema?: unknown; strict?: boolean } };
  tools?: Array<{ type: string; function: { name: string } }>;
  tool_choice?: unknown;
  temperature?: number;
  seed?: number;
  [key: string]: unknown;
}
