// The control port both virtual boards offer (vm/pico.mjs, rp2040/emulator.mjs): JSON lines in,
// one line out for each, on a loopback TCP port announced as "control PORT" on stdout.
import net from "node:net";

// `answer(line, reply)` handles one request line; `reply(text)` may be called later (a request
// answered in the emulated chip's time), and is dropped if the client has gone.
export function serveControl(answer) {
  const server = net.createServer((conn) => {
    let pending = "";
    conn.setNoDelay(true);
    conn.on("data", (data) => {
      pending += data.toString("utf8");
      let cut;
      while ((cut = pending.indexOf("\n")) >= 0) {
        const line = pending.slice(0, cut);
        pending = pending.slice(cut + 1);
        answer(line, (text) => { if (!conn.destroyed) conn.write(text + "\n"); });
      }
    });
    conn.on("error", () => {});
  });
  server.listen(0, "127.0.0.1", () => process.stdout.write("control " + server.address().port + "\n"));
  return server;
}

// A board started by another process powers off with it (--lifeline): that process holds this one's
// stdin open and never writes to it, so stdin reaches its end exactly when that process has ended,
// however it ended (SIGKILL too, which it cannot handle), as a board goes dark when its USB cable
// is pulled. `powerOff` does the program's last writes and exits.
export function followParent(powerOff) {
  process.stdin.on("end", powerOff);
  process.stdin.on("error", powerOff);
  process.stdin.resume();
}
