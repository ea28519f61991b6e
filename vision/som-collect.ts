/**
 * The part of Set-of-Mark labelling that runs inside one frame's document. It must be self-contained
 * (Playwright serialises it), so it names nothing from the module around it; run it through inPage().
 */

export interface Rect { x: number; y: number; width: number; height: number }

export interface RawCandidate {
  tag: string;
  role: string;
  name: string;
  value: string | null;
  disabled: boolean;
  /** The visible part of the element, clipped to the frame's viewport and clip, in frame coordinates. */
  box: Rect;
  /** Where the hit test was made (the centre of the visible part), in frame coordinates. */
  point: { x: number; y: number };
}

export interface CollectArgs {
  /** The part of this frame shown through its parents, in frame coordinates; null for the top frame. */
  clip: Rect | null;
  maxElements: number;
}

export interface CollectResult {
  candidates: RawCandidate[];
  elements: Element[];
  scanned: number;
}

export function collectCandidates(args: CollectArgs): CollectResult {
  const LEAF_ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio',
    'option', 'switch', 'textbox', 'searchbox', 'slider', 'spinbutton', 'treeitem']);
  const OTHER_ROLES = new Set(['combobox', 'listbox', 'menu', 'menubar', 'tablist', 'radiogroup', 'tree', 'grid', 'gridcell', 'scrollbar']);
  const tracked = (window as unknown as Record<symbol, WeakSet<Element> | undefined>)[Symbol.for('iwb.clickTargets')];
  const squash = (s: string | null | undefined, n: number) => {
    const t = (s ?? '').replace(/\s+/g, ' ').trim();
    return t.length > n ? t.slice(0, n - 1) + '…' : t;
  };
  const parentOf = (n: Node): Element | null => {
    if (n instanceof Element && n.parentElement) return n.parentElement;
    const p = n.parentNode;
    return p instanceof ShadowRoot ? p.host : null;
  };

  // Every element, light DOM and open shadow roots alike, capped so a pathological page stays cheap.
  const all: Element[] = [];
  const walk = (root: Document | ShadowRoot) => {
    for (const el of Array.from(root.querySelectorAll('*'))) {
      if (all.length >= args.maxElements) return;
      all.push(el);
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);

  const implicitRole = (el: Element): string => {
    const tag = el.localName;
    if (tag === 'a') return 'link';
    if (tag === 'button' || tag === 'summary') return 'button';
    if (tag === 'textarea') return 'textbox';
    if (tag === 'select') return (el as HTMLSelectElement).multiple || (el as HTMLSelectElement).size > 1 ? 'listbox' : 'combobox';
    if (tag === 'input') {
      const type = (el as HTMLInputElement).type;
      const map: Record<string, string> = { checkbox: 'checkbox', radio: 'radio', range: 'slider', number: 'spinbutton', search: 'searchbox',
        button: 'button', submit: 'button', reset: 'button', image: 'button', text: 'textbox', email: 'textbox', tel: 'textbox', url: 'textbox', password: 'textbox' };
      return map[type] ?? `input[${type}]`;
    }
    if ((el as HTMLElement).isContentEditable) return 'textbox';
    return '';
  };

  /** leaf: one control, its content is part of it; group: interactive, may hold controls; weak: only a pointer cursor. */
  const kindOf = (el: Element): 'leaf' | 'group' | 'weak' | null => {
    const tag = el.localName;
    if (tag === 'a' && el.hasAttribute('href')) return 'leaf';
    if (tag === 'button' || tag === 'summary' || tag === 'select' || tag === 'textarea') return 'leaf';
    if (tag === 'input') return (el as HTMLInputElement).type === 'hidden' ? null : 'leaf';
    const role = (el.getAttribute('role') ?? '').trim().split(/\s+/)[0] ?? '';
    if (LEAF_ROLES.has(role)) return 'leaf';
    if (OTHER_ROLES.has(role)) return 'group';
    const he = el as HTMLElement;
    if (he.isContentEditable && !(parentOf(el) as HTMLElement | null)?.isContentEditable) return 'leaf';
    if (el.hasAttribute('onclick') || (el as HTMLElement).onclick !== null || tracked?.has(el)) return 'group';
    const cursor = getComputedStyle(el).cursor;
    if (cursor === 'pointer') {
      const p = parentOf(el);
      // cursor is inherited: only the element that sets it is a target, not every descendant.
      if (!p || getComputedStyle(p).cursor !== 'pointer') return 'weak';
    }
    return null;
  };

  const kinds = new Map<Element, 'leaf' | 'group' | 'weak'>();
  for (const el of all) {
    const k = kindOf(el);
    if (k) kinds.set(el, k);
  }

  const nearestCandidate = (el: Element): Element | null => {
    for (let p = parentOf(el); p; p = parentOf(p)) if (kinds.has(p)) return p;
    return null;
  };
  // Nested duplicates: anything inside a leaf control, and a pointer-cursor element inside any candidate,
  // is the same target as its ancestor; a wrapper the size of the one control it holds is that control.
  const dropped = new Set<Element>();
  for (const [el, k] of kinds) {
    const anc = nearestCandidate(el);
    if (!anc) continue;
    if (kinds.get(anc) === 'leaf' || k === 'weak') { dropped.add(el); continue; }
    const a = anc.getBoundingClientRect(), b = el.getBoundingClientRect();
    const inter = Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
    const union = a.width * a.height + b.width * b.height - inter;
    if (union > 0 && inter / union > 0.85) dropped.add(anc);
  }

  const deepHit = (x: number, y: number): Element | null => {
    let hit = document.elementFromPoint(x, y);
    while (hit?.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    return hit;
  };
  const composedContains = (el: Element, n: Node | null) => {
    for (let c: Node | null = n; c; c = c instanceof ShadowRoot ? c.host : c.parentNode) if (c === el) return true;
    return false;
  };

  const ownText = (n: Node): string => {
    if (n.nodeType === Node.TEXT_NODE) return n.textContent ?? '';
    if (n instanceof HTMLInputElement || n instanceof HTMLSelectElement || n instanceof HTMLTextAreaElement) return '';
    if (n instanceof HTMLElement && !n.checkVisibility()) return '';
    return Array.from(n.childNodes).map(ownText).join('');
  };
  const labelText = (el: Element): string => {
    const by = el.getAttribute('aria-labelledby');
    if (by) {
      const root = el.getRootNode() as Document | ShadowRoot;
      const t = by.split(/\s+/).map((id) => root.getElementById?.(id)?.textContent ?? '').join(' ');
      if (t.trim()) return t;
    }
    const aria = el.getAttribute('aria-label');
    if (aria?.trim()) return aria;
    const labels = (el as HTMLInputElement).labels;
    // A wrapping label also holds the control itself (a select's options, say): read only the label's own text.
    if (labels && labels.length > 0) return Array.from(labels).map((l) => ownText(l)).join(' ');
    return '';
  };
  const nameOf = (el: Element, role: string): string => {
    const own = labelText(el);
    if (own.trim()) return squash(own, 80);
    const he = el as HTMLElement;
    if (el instanceof HTMLInputElement && ['button', 'submit', 'reset'].includes(el.type)) return squash(el.value || el.type, 80);
    const isField = el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement;
    if (!isField && role !== 'textbox') {
      const text = squash(he.innerText, 80);
      if (text) return text;
      const img = el.querySelector('img[alt], svg title');
      const alt = img?.getAttribute('alt') ?? img?.textContent;
      if (alt?.trim()) return squash(alt, 80);
    }
    return squash(el.getAttribute('placeholder') ?? el.getAttribute('title') ?? '', 80);
  };
  const valueOf = (el: Element): string | null => {
    if (el instanceof HTMLInputElement) {
      if (el.type === 'checkbox' || el.type === 'radio') return el.checked ? 'checked' : 'unchecked';
      if (['button', 'submit', 'reset', 'image'].includes(el.type)) return null;
      if (el.type === 'password') return el.value ? '•'.repeat(Math.min(el.value.length, 8)) : '';
      return squash(el.value, 60);
    }
    if (el instanceof HTMLTextAreaElement) return squash(el.value, 60);
    if (el instanceof HTMLSelectElement) return squash(Array.from(el.selectedOptions).map((o) => o.text).join(', '), 60);
    if (el.localName === 'details' || el.localName === 'summary') return (el.closest('details') as HTMLDetailsElement | null)?.open ? 'open' : 'closed';
    if ((el as HTMLElement).isContentEditable) return squash((el as HTMLElement).innerText, 60);
    const checked = el.getAttribute('aria-checked') ?? el.getAttribute('aria-pressed') ?? el.getAttribute('aria-selected');
    return checked !== null ? `${el.hasAttribute('aria-checked') ? 'checked' : el.hasAttribute('aria-pressed') ? 'pressed' : 'selected'}=${checked}` : null;
  };

  // The frame's own viewport without scrollbars: elementFromPoint answers null outside it.
  const de = document.documentElement;
  const vp = { x: 0, y: 0, width: de.clientWidth || window.innerWidth, height: de.clientHeight || window.innerHeight };
  const given = args.clip ?? vp;
  const cx = Math.max(vp.x, given.x), cy = Math.max(vp.y, given.y);
  const c = { x: cx, y: cy, width: Math.min(vp.width, given.x + given.width) - cx, height: Math.min(vp.height, given.y + given.height) - cy };
  const candidates: RawCandidate[] = [];
  const elements: Element[] = [];
  for (const [el] of kinds) {
    if (dropped.has(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
    const left = Math.max(r.left, c.x), top = Math.max(r.top, c.y);
    const right = Math.min(r.right, c.x + c.width), bottom = Math.min(r.bottom, c.y + c.height);
    if (right - left < 1 || bottom - top < 1) continue;
    const point = { x: (left + right) / 2, y: (top + bottom) / 2 };
    if (!composedContains(el, deepHit(point.x, point.y))) continue;
    const role = (el.getAttribute('role') ?? '').trim().split(/\s+/)[0] || implicitRole(el);
    candidates.push({
      tag: el.localName,
      role,
      name: nameOf(el, role),
      value: valueOf(el),
      disabled: (el as HTMLButtonElement).disabled === true || el.getAttribute('aria-disabled') === 'true',
      box: { x: left, y: top, width: right - left, height: bottom - top },
      point,
    });
    elements.push(el);
  }
  return { candidates, elements, scanned: all.length };
}

/** Is each point (frame coordinates) on the given iframe element, i.e. not covered in this frame? */
export function pointsHit(arg: { frameElement: Node; points: Array<{ x: number; y: number }> }): boolean[] {
  return arg.points.map((p) => {
    let hit = document.elementFromPoint(p.x, p.y);
    while (hit?.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(p.x, p.y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    return hit === arg.frameElement;
  });
}

/** Where an iframe's document starts and what of it is shown, in its parent frame's coordinates. */
export function contentBox(el: Element): Rect {
  const r = el.getBoundingClientRect(), s = getComputedStyle(el);
  const px = (v: string) => parseFloat(v) || 0;
  const x = r.left + el.clientLeft + px(s.paddingLeft), y = r.top + el.clientTop + px(s.paddingTop);
  return { x, y, width: el.clientWidth - px(s.paddingLeft) - px(s.paddingRight), height: el.clientHeight - px(s.paddingTop) - px(s.paddingBottom) };
}
