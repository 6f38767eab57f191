// A tiny element builder: h("div", { class: "x", "data-testid": "y" }, children...).
type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | EventListener | null | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "value" && "value" in el) (el as HTMLInputElement).value = String(v);
    else if (k === "checked" && "checked" in el) (el as HTMLInputElement).checked = Boolean(v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

export function svg(tag: string, attrs: Record<string, string | number | undefined> = {}, ...children: Node[]): SVGElement {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
}

export function select(testid: string, options: [string, string][], value: string, onChange: (v: string) => void, disabled = false) {
  return h(
    "select",
    { "data-testid": testid, disabled, onchange: (e: Event) => onChange((e.target as HTMLSelectElement).value) },
    options.map(([v, label]) => h("option", { value: v, selected: v === value }, label)),
  );
}

/** The page's message line: errors and notices, never a crash. Returns what takes the
 * message away before its time (a notice the page knows is over). */
export function showMessage(text: string, kind: "error" | "info" = "error"): () => void {
  const box = document.querySelector<HTMLElement>("#messages");
  if (!box) return () => {};
  // Also in the console: what a player was told stays there after the message fades.
  (kind === "error" ? console.warn : console.info)(`tablero: ${text}`);
  const m = h("div", { class: `msg ${kind}`, "data-testid": kind === "error" ? "error" : "notice", role: "alert" }, text);
  box.replaceChildren(m);
  setTimeout(() => m.remove(), kind === "error" ? 8000 : 5000);
  return () => m.remove();
}

/** Replaces an element's children, skipping null/false like h() does. */
export function fill(el: Element, ...children: (Child | Child[])[]): void {
  el.replaceChildren(...children.flat().filter((c): c is Node | string | number => c !== null && c !== undefined && c !== false).map((c) => (c instanceof Node ? c : String(c))));
}
