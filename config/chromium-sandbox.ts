import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS } from './settings.js';

/**
 * Whether the judged Chromium keeps its own sandbox (renderers in a user namespace with a seccomp
 * filter, so a page that breaks the renderer is still held). Chromium refuses it as root and then needs
 * --no-sandbox; a root harness therefore starts it through chromium-as-user.sh as an unprivileged uid of
 * its own. The same decision, a pure function of the machine, is made wherever a browser is launched
 * and by the reporter, which writes it into meta.sandbox.
 */

export const CHROMIUM_AS_USER = fileURLToPath(new URL('./chromium-as-user.sh', import.meta.url));
/** The judged browser's uid under a root harness: fixed, outside Debian's accounts and the agents' range (sandbox/detect.ts). */
export const BROWSER_UID = 199_999;

export type BrowserSandbox =
  | { kind: 'own-sandbox-as-user'; uid: number }
  | { kind: 'own-sandbox' }
  | { kind: 'no-sandbox'; why: string };

export interface MachineFacts {
  root: boolean;
  setpriv: boolean;
  /** The kernel lets an unprivileged process make a user namespace (what Chromium's sandbox needs). */
  userNamespaces: boolean;
}

const readNumber = (file: string): number | undefined => {
  try {
    return Number(readFileSync(file, 'utf8').trim());
  } catch {
    return undefined;
  }
};

export function machineFacts(): MachineFacts {
  const max = readNumber('/proc/sys/user/max_user_namespaces');
  const debianSwitch = readNumber('/proc/sys/kernel/unprivileged_userns_clone');
  const ubuntuSwitch = readNumber('/proc/sys/kernel/apparmor_restrict_unprivileged_userns');
  return {
    root: process.getuid?.() === 0,
    setpriv: existsSync('/usr/bin/setpriv'),
    userNamespaces: max !== 0 && debianSwitch !== 0 && ubuntuSwitch !== 1,
  };
}

/** `off`: IWB_CHROMIUM_SANDBOX=off, the browser runs with --no-sandbox (reported as weaker isolation). */
export function browserSandbox(setting: 'auto' | 'off', facts: MachineFacts = machineFacts()): BrowserSandbox {
  if (setting === 'off') return { kind: 'no-sandbox', why: 'IWB_CHROMIUM_SANDBOX=off' };
  if (!facts.userNamespaces) return { kind: 'no-sandbox', why: 'this kernel refuses unprivileged user namespaces' };
  if (!facts.root) return { kind: 'own-sandbox' };
  if (!facts.setpriv) return { kind: 'no-sandbox', why: 'running as root without /usr/bin/setpriv to start the browser as another uid' };
  return { kind: 'own-sandbox-as-user', uid: BROWSER_UID };
}

export function describeBrowserSandbox(s: BrowserSandbox): string {
  if (s.kind === 'own-sandbox-as-user') return `Chromium's own sandbox, as uid ${s.uid}`;
  if (s.kind === 'own-sandbox') return "Chromium's own sandbox";
  return `--no-sandbox (${s.why})`;
}

/** Launch options for Playwright (launch or launchServer) that start `executablePath` under `sandbox`. */
export function chromiumLaunchOptions(executablePath: string | undefined, sandbox: BrowserSandbox): { executablePath?: string; args: string[]; chromiumSandbox: boolean } {
  const base = CHROMIUM_ARGS.filter((a) => a !== '--no-sandbox');
  if (sandbox.kind === 'no-sandbox') return { ...(executablePath ? { executablePath } : {}), args: CHROMIUM_ARGS, chromiumSandbox: false };
  // Playwright's own browser as root has no path to hand the wrapper: it runs as before.
  if (!executablePath && sandbox.kind === 'own-sandbox-as-user') return { args: CHROMIUM_ARGS, chromiumSandbox: false };
  if (sandbox.kind === 'own-sandbox' || !executablePath) return { ...(executablePath ? { executablePath } : {}), args: base, chromiumSandbox: true };
  return { executablePath: CHROMIUM_AS_USER, args: [...base, `--iwb-uid=${sandbox.uid}`, `--iwb-chromium=${executablePath}`], chromiumSandbox: true };
}
