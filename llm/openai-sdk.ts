/**
 * The `openai` SDK, loaded on first use. It is some 190 modules (200-400 ms on 2 cores, measured), and
 * every Playwright worker, restarted after every failed slot, loads the model client whether or not a
 * model is configured or its verdicts are already cached; so nothing imports it at the top level.
 */
export type OpenAISdk = typeof import('openai');

let loaded: OpenAISdk | undefined;
let loading: Promise<OpenAISdk> | undefined;

export function openaiSdk(): Promise<OpenAISdk> {
  loading ??= import('openai').then((m) => (loaded = m));
  return loading;
}

/** The SDK if a request has loaded it: an error can be one of the SDK's only once it has. */
export function loadedSdk(): OpenAISdk | undefined {
  return loaded;
}
