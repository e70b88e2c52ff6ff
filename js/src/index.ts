// anywidget entry point: the card table front end.
type Model = { get(name: string): unknown };

function render({ model, el }: { model: Model; el: HTMLElement }): void {
  el.classList.add("rw-root");
  el.textContent = String(model.get("lang") ?? "");
}

export default { render };
