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
