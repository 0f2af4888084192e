/** Installs shownText for the whole dashboard, in the one place every rendered text passes. */
import { options, type VNode } from 'preact';
import { shownText } from './shownText';

/** Attributes a reader sees or hears: a tooltip and what a screen reader says. */
const READ_ATTRIBUTES = ['title', 'aria-label'] as const;

/**
 * Passes every text node and read attribute through shownText as Preact creates it: one place for all the
 * names the host sends, while what the page sends back (a server to disable) stays the exact name.
 */
export function showOnlyVisibleText(): void {
  const next = options.vnode;
  options.vnode = (vnode: VNode<Record<string, unknown>>) => {
    // Preact's text nodes have no type and their text as props.
    const text = vnode as unknown as { type: unknown; props: unknown };
    if (text.type === null && typeof text.props === 'string') text.props = shownText(text.props);
    else if (typeof vnode.type === 'string')
      for (const name of READ_ATTRIBUTES) {
        const value = vnode.props[name];
        if (typeof value === 'string') vnode.props[name] = shownText(value);
      }
    next?.(vnode);
  };
}
