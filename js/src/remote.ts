// A classroom seat's relay: the browser holds the WebSocket to the classroom server (Pyodide
// cannot open sockets; a page can), the kernel holds the table (rummy_widget/table/remote.py).
// One socket per model (anywidget's initialize), opened when the synced `remote` trait names a
// server. Every server frame goes to the kernel as a custom message; the kernel's frames go out.
// The seat's token is kept in localStorage under (server, room, name) so a page reload or a
// kernel restart takes the seat back; it crosses only custom messages, never a synced trait.
import type { Model } from "./types";

type Store = Pick<Storage, "getItem" | "setItem">;
type Socket = {
  readyState: number;
  send(text: string): void;
  close(): void;
  onopen: (() => void) | null;
  onmessage: ((e: { data: unknown }) => void) | null;
  onclose: (() => void) | null;
};

/** Reconnection waits 0.5 s, then doubles up to 10 s; a socket that opens starts again. */
export const FIRST_DELAY = 500;
export const LAST_DELAY = 10_000;

export function relay(
  model: Model,
  open: (url: string) => Socket = (url) => new WebSocket(url) as unknown as Socket,
  store: Store | null = safeStorage(),
): () => void {
  let socket: Socket | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let delay = FIRST_DELAY;
  let stopped = false;
  const where = model.get("remote") as { url?: string; room?: string; name?: string } | undefined;
  if (!where?.url) return () => {};
  const key = `rummy_widget.seat ${where.url} ${where.room} ${where.name}`;
  const read = () => {
    try {
      return store?.getItem(key) ?? null;
    } catch {
      return null;
    }
  };
  const connect = (): void => {
    const ws = (socket = open(where.url as string));
    ws.onopen = () => {
      delay = FIRST_DELAY;
      model.send({ type: "remote_open", token: read() });
    };
    ws.onmessage = (e) => {
      const text = String(e.data);
      if (text.includes('"welcome"')) {
        try {
          const m = JSON.parse(text);
          if (m.type === "welcome" && m.token) store?.setItem(key, m.token);
        } catch {
          // not JSON: the kernel reads it and ignores it
        }
      }
      model.send({ type: "remote_frame", text });
    };
    ws.onclose = () => {
      if (socket !== ws || stopped) return;
      socket = null;
      model.send({ type: "remote_closed" });
      timer = setTimeout(connect, delay);
      delay = Math.min(delay * 2, LAST_DELAY);
    };
  };
  const fromKernel = (msg: { type?: string; text?: string }): void => {
    if (msg?.type === "remote_send" && socket?.readyState === 1) socket.send(String(msg.text));
  };
  model.on("msg:custom", fromKernel);
  connect();
  return () => {
    stopped = true;
    clearTimeout(timer);
    model.off("msg:custom", fromKernel);
    socket?.close();
  };
}

function safeStorage(): Store | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // a sandboxed page: the seat is kept only while the page lives
  }
}
