/** Symbol under which the init script keeps the elements that got a click-like listener. */
export const CLICK_TRACKER_KEY = 'iwb.clickTargets';

/**
 * Init script (a string, so it is never transpiled) that remembers which elements got click-like
 * listeners through addEventListener: frameworks attach handlers that way, and without this a `<div>`
 * with a React onClick and no pointer cursor would be invisible to the labeller. It stores references
 * only; the DOM is not touched.
 */
export const CLICK_TRACKER_SCRIPT = `(() => {
  const key = Symbol.for(${JSON.stringify(CLICK_TRACKER_KEY)});
  if (window[key]) return;
  const set = new WeakSet();
  Object.defineProperty(window, key, { value: set, enumerable: false });
  const original = EventTarget.prototype.addEventListener;
  const kinds = new Set(['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'touchstart', 'dblclick']);
  EventTarget.prototype.addEventListener = function (type, listener, options) {
    if (kinds.has(type) && this instanceof Element && this !== document.documentElement && this !== document.body) set.add(this);
    return original.call(this, type, listener, options);
  };
})();`;
