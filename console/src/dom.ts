/** What `h()` takes as attributes: a listener for `on…` names, a flag for booleans, else the attribute's text. */
type Attributes = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;
type Child = Node | string | number | null | undefined | false;

/**
 * An element, built without HTML strings: text always goes in as text nodes, so nothing the API returns
 * (a key's name, an endpoint's URL) can become markup.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (typeof value === 'boolean') element.toggleAttribute(name, value);
    else if (value !== undefined) element.setAttribute(name, String(value));
  }
  element.append(...children.filter((child) => child !== null && child !== undefined && child !== false).map(appendable));
  return element;
}

// `append` takes strings as text; numbers are shown with thousands separators.
function appendable(child: Exclude<Child, null | undefined | false>): Node | string {
  return typeof child === 'number' ? child.toLocaleString('en') : child;
}

/** Replaces an element's content. */
export function fill(element: Element, ...children: Array<Node | string>): void {
  element.replaceChildren(...children);
}

/** A table with a caption and a header row. */
export function table(caption: string, headings: string[], rows: Array<Array<Node | string | number>>): HTMLTableElement {
  return h(
    'table',
    {},
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, ...headings.map((heading) => h('th', { scope: 'col' }, heading)))),
    h('tbody', {}, ...rows.map((cells) => h('tr', {}, ...cells.map((cell) => h('td', {}, cell))))),
  );
}

/** A labelled checkbox of a form's list (`name` repeats, one `value` each). */
export function checkbox(name: string, value: string, label: string, checked: boolean): HTMLElement {
  const id = newId(name);
  return h('div', { class: 'check' }, h('input', { type: 'checkbox', id, name, value, checked }), h('label', { for: id }, label));
}

let uniqueIds = 0;
/** An id for a label's `for` or an `aria-labelledby`. */
export const newId = (stem: string): string => `${stem}-${++uniqueIds}`;

/** A text field of a submitted form ('' when absent). */
export function textOf(values: FormData, name: string): string {
  const value = values.get(name);
  return typeof value === 'string' ? value : '';
}
