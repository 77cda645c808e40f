// A virtual Pico on a TCP port: its REPL is the real MicroPython VM, its flash a host folder.
//
//   node vm/pico.mjs --files DIR [--mount HOST_DIR:VM_DIR]... [--port N]
//                    [--board PROFILE.json --control] [--capacity BYTES] [--no-raw-paste] [--lifeline]
//
// Prints "listening PORT" when ready; then `mpremote connect socket://127.0.0.1:PORT ...`
// copies files, lists, runs code and soft-resets as on a board. What it does for mpremote:
// - bytes go one by one to the VM's REPL (friendly and raw REPL are the VM's own);
// - raw-paste mode (Ctrl-E "A" Ctrl-A) is done by the bridge, since the VM's own would wait for
//   input it cannot get: it takes the code with flow control (a window of PASTE_WINDOW bytes, "\x01"
//   for each next one), acknowledges the end with "\x04", then runs the code through the VM's raw
//   REPL, whose "OK" it drops, as a Pico's raw-paste answers. `--no-raw-paste` answers "R\x00"
//   (not supported) instead, and mpremote falls back to plain raw mode;
// - a soft reset (Ctrl-D on an empty raw REPL, or at the friendly prompt) starts a fresh VM with
//   the same files, prints "MPY: soft reboot", and in friendly mode runs main.py as a Pico does;
// - the VM's files are DIR's files: loaded at every (re)boot, written back after every command.
// - at power-on and after a friendly soft reset main.py runs; the firmware's asyncio tasks run on
//   node's event loop (the VM has no asyncio.run), and Ctrl-C stops them as it stops main.py on a Pico.
// Mounted folders (e.g. the virtual `machine`) are on sys.path but are not the device's files.
// --board wires the virtual parts that profile names (dicetower_host/virtual_parts must be mounted); with
// --control a second port ("control PORT") takes JSON lines for dicetower_host/virtual_parts/hands.py:
// press and release buttons, read the OLED's text and the ring's colours.
// --capacity makes the flash that many bytes (default a Pico's 1,408 KiB of littlefs; 0: no limit):
// os.statvfs, and so `mpremote df`, says so and writes beyond it fail (ENOSPC). `os` lists the files
// with their sizes and without the VM's own folders, as a Pico does (vm/board_os.py).
// --lifeline: the process that started this one holds its stdin open; when that process ends, however
// it ended (SIGKILL too), stdin reaches its end and this board powers off with it (control.mjs).
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { followParent, serveControl } from "./control.mjs";

const args = process.argv.slice(2);
let filesDir = null;
let port = 0;
let profile = null;
let control = false;
const PICO_FLASH = 1441792; // MicroPython's RPI_PICO: 1,408 KiB of littlefs
let capacity = PICO_FLASH;
let rawPaste = true;
let lifeline = false;
const mounts = [];
for (let i = 0; i < args.length; i += 2) {
  if (args[i] === "--files") filesDir = path.resolve(args[i + 1]);
  else if (args[i] === "--port") port = Number(args[i + 1]);
  else if (args[i] === "--board") profile = fs.readFileSync(args[i + 1], "utf8");
  else if (args[i] === "--control") { control = true; i -= 1; }
  else if (args[i] === "--capacity") capacity = Number(args[i + 1]);
  else if (args[i] === "--no-raw-paste") { rawPaste = false; i -= 1; }
  else if (args[i] === "--lifeline") { lifeline = true; i -= 1; }
  else if (args[i] === "--mount") {
    const cut = args[i + 1].lastIndexOf(":");
    mounts.push([args[i + 1].slice(0, cut), args[i + 1].slice(cut + 1)]);
  } else {
    process.stderr.write("usage: node vm/pico.mjs --files DIR [--mount HOST:VM]... [--port N] "
      + "[--board PROFILE.json] [--control] [--capacity BYTES] [--no-raw-paste] [--lifeline]\n");
    process.exit(2);
  }
}
if (!filesDir) {
  process.stderr.write("vm/pico.mjs: --files DIR is required\n");
  process.exit(2);
}
fs.mkdirSync(filesDir, { recursive: true });

// The VM's own folders at the root, not the device's: never listed, loaded or synced. ".vm" holds
// board_os.py, the VM's `os` as a Pico lists its files.
const BOARD_OS = fs.readFileSync(new URL("./board_os.py", import.meta.url));
const SYSTEM = new Set(["tmp", "home", "dev", "proc", ".vm", ...mounts.map(([, vm]) => vm.split("/").filter(Boolean)[0])]);
const decoder = new TextDecoder();
let socket = null; // the newest open connection: the one the board's output goes to
const clients = []; // every open connection, oldest first: when the newest closes, the one before it has the port again
let mp = null;
let raw = false; // in raw REPL
let recent = ""; // the tail of the output, to see the REPL's mode
let paste = ""; // bytes of a possible raw-paste request
let pasting = null; // the code of a raw-paste in progress (an array of bytes), or null
let pasted = 0; // bytes taken since the last window was granted
let dropOk = ""; // the VM's "OK" to drop after a raw-paste
const PASTE_WINDOW = 256;
const SETTLE_LIMIT_MS = 8000; // within dicetower_host/pico.py's CONTROL_TIMEOUT (10 s)

let quiet = false; // while the bridge itself talks to a fresh VM's REPL
let held = ""; // output held back while an OSError line may be incomplete

// The WebAssembly port raises OSError with Emscripten's errno numbers; a Pico (and so mpremote)
// uses MicroPython's. Tracebacks are rewritten as a Pico would print them.
const ERRNO = { 44: [2, "ENOENT"], 20: [17, "EEXIST"], 54: [20, "ENOTDIR"], 31: [21, "EISDIR"],
  55: [39, "ENOTEMPTY"], 28: [22, "EINVAL"], 51: [28, "ENOSPC"], 2: [13, "EACCES"], 29: [5, "EIO"] };

function translate(text) {
  return text.replace(/OSError: (\d+)(?=\r?\n|$)/g, (all, n) =>
    ERRNO[n] ? "OSError: [Errno " + ERRNO[n][0] + "] " + ERRNO[n][1] : all);
}

function couldBeOsError(line) {
  return "OSError: ".startsWith(line) || /^OSError: \d+\r?$/.test(line);
}

function write(data) {
  if (quiet) return;
  // The VM writes a byte at a time: decode as a stream, so a character of several bytes stays whole.
  const text = typeof data === "string" ? data : decoder.decode(data, { stream: true });
  let out = "";
  for (const ch of text) {
    held += ch;
    if (ch === "\n") {
      out += translate(held);
      held = "";
    } else if (!couldBeOsError(held)) {
      out += held;
      held = "";
    }
  }
  if (dropOk && out.startsWith(dropOk)) {
    out = out.slice(dropOk.length);
    dropOk = "";
  } else if (dropOk && dropOk.startsWith(out)) {
    dropOk = dropOk.slice(out.length);
    out = "";
  }
  if (!out) return;
  recent = (recent + out).slice(-64);
  if (recent.endsWith("raw REPL; CTRL-B to exit\r\n>")) raw = true;
  if (recent.endsWith("\r\n>>> ")) raw = false;
  if (socket) socket.write(Buffer.from(out, "utf8"));
}

function mkdirs(dir) {
  let at = "";
  for (const part of dir.split("/").filter(Boolean)) {
    at += "/" + part;
    try { mp.FS.mkdir(at); } catch (e) { /* exists */ }
  }
}

let deviceFiles = false; // loading the flash folder (not a mount)

function load(hostDir, vmDir, only) {
  mkdirs(vmDir);
  for (const entry of fs.readdirSync(hostDir, { withFileTypes: true })) {
    if (only && !only(entry.name)) continue;
    const from = path.join(hostDir, entry.name);
    const to = (vmDir === "/" ? "" : vmDir) + "/" + entry.name;
    if (entry.isDirectory()) load(from, to, null);
    else mp.FS.writeFile(to, fs.readFileSync(from));
    if (deviceFiles) known.add(from);
  }
}

let known = new Set(); // host files the VM has had: only those are removed when the VM removes them

function sync() {
  // The VM's device files -> the host folder: written if changed, removed if the VM removed them.
  // A file put into the host folder meanwhile stays, and the VM gets it at its next boot.
  const seen = new Set();
  const walk = (vmDir, hostDir) => {
    for (const name of mp.FS.readdir(vmDir)) {
      if (name === "." || name === "..") continue;
      if (vmDir === "/" && SYSTEM.has(name)) continue;
      const vmPath = (vmDir === "/" ? "" : vmDir) + "/" + name;
      const hostPath = path.join(hostDir, name);
      seen.add(hostPath);
      if (mp.FS.isDir(mp.FS.stat(vmPath).mode)) {
        fs.mkdirSync(hostPath, { recursive: true });
        walk(vmPath, hostPath);
      } else {
        const data = Buffer.from(mp.FS.readFile(vmPath));
        if (!fs.existsSync(hostPath) || !fs.readFileSync(hostPath).equals(data)) fs.writeFileSync(hostPath, data);
      }
    }
  };
  walk("/", filesDir);
  const prune = (hostDir) => {
    for (const entry of fs.readdirSync(hostDir, { withFileTypes: true })) {
      const hostPath = path.join(hostDir, entry.name);
      if (entry.isDirectory()) prune(hostPath);
      if (!seen.has(hostPath) && known.has(hostPath)) fs.rmSync(hostPath, { recursive: true, force: true });
    }
  };
  prune(filesDir);
  known = seen;
}

function used() {
  // Bytes in the device's files (not the VM's own folders nor mounts).
  let total = 0;
  const walk = (vmDir) => {
    for (const name of mp.FS.readdir(vmDir)) {
      if (name === "." || name === ".." || (vmDir === "/" && SYSTEM.has(name))) continue;
      const vmPath = (vmDir === "/" ? "" : vmDir) + "/" + name;
      const stat = mp.FS.stat(vmPath);
      if (mp.FS.isDir(stat.mode)) walk(vmPath);
      else total += stat.size;
    }
  };
  walk("/");
  return total;
}

function limitFlash() {
  // A flash of `capacity` bytes in 4 KB blocks, as LittleFS on a Pico reports it.
  const FS = mp.FS;
  const statfsNode = FS.statfsNode;
  FS.statfsNode = (node) => {
    const out = statfsNode(node);
    out.blocks = Math.floor(capacity / out.bsize);
    out.bfree = out.bavail = Math.max(0, Math.floor((capacity - used()) / out.bsize));
    return out;
  };
  const write = FS.write;
  FS.write = (stream, buffer, offset, length, position, canOwn) => {
    const at = position ?? stream.position;
    const grows = Math.max(0, at + length - stream.node.usedBytes);
    if (grows > 0 && used() + grows > capacity) throw new FS.ErrnoError(51); // ENOSPC
    return write(stream, buffer, offset, length, position, canOwn);
  };
}

async function boot() {
  mp = await loadMicroPython({ stdout: write, stderr: write, linebuffer: false });
  deviceFiles = true;
  load(filesDir, "/", (name) => !SYSTEM.has(name));
  deviceFiles = false;
  for (const [hostDir, vmDir] of mounts) load(hostDir, vmDir, null);
  mkdirs("/.vm");
  mp.FS.writeFile("/.vm/board_os.py", BOARD_OS);
  mp.runPython(["import sys", "sys.path.insert(0, '/.vm')", "import board_os", "sys.path.pop(0)",
    `board_os.HIDDEN = ${JSON.stringify([...SYSTEM])}`, "sys.modules['os'] = board_os",
    ...mounts.map(([, vm]) => `sys.path.append(${JSON.stringify(vm)})`)].join("\n"));
  if (profile) mp.runPython(`import hands\nhands.wire(${JSON.stringify(profile)})`);
  if (capacity) limitFlash();
}

let running = false; // main.py's tasks are on the event loop

function runMain() {
  if (!fs.existsSync(path.join(filesDir, "main.py"))) return;
  try {
    mp.runPython("exec(open('main.py').read(), {'__name__': '__main__'})");
    running = true;
  } catch (e) {
    write(String(e.message || e).replace(/\n/g, "\r\n") + "\r\n");
  }
}

function interrupt() {
  // Ctrl-C: main.py's tasks stop, as KeyboardInterrupt ends asyncio.run on a Pico. The loop's pending
  // JS timer is cleared too: left to fire after a soft reset has loaded a fresh VM, it would call
  // into the old VM through the new one's globals and crash node ("memory access out of bounds").
  running = false;
  try {
    mp.runPython("import asyncio, js\nfrom asyncio import core\nif core.asyncio_timer is not None:\n"
      + "    js.clearTimeout(core.asyncio_timer)\n    core.asyncio_timer = None\nasyncio.new_event_loop()");
  } catch (e) { /* no asyncio: nothing ran */ }
}

async function softReset() {
  sync();
  if (running) interrupt(); // else the old VM's timers would go on printing

  const wasRaw = raw;
  await boot();
  write("MPY: soft reboot\r\n");
  if (wasRaw) {
    // Put the fresh VM's REPL into raw mode too, then say so as a Pico does.
    quiet = true;
    mp.replInit();
    mp.replProcessChar(0x01);
    quiet = false;
    write("raw REPL; CTRL-B to exit\r\n>");
    return;
  }
  runMain();
  mp.replInit();
}

let queue = Promise.resolve();
// Bytes go to the VM synchronously, in the socket's own callback: the VM's REPL must not be
// entered from an awaited continuation. Only a soft reset waits (for the fresh VM).
function feed(bytes) {
  // A window grant for every packet of pasted code: mpremote only adds it to its window, and the
  // reply carries TCP's ACK at once, so the client's next small write is not held back by Nagle.
  if (pasting && bytes.length) write("\x01");
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (pasting) {
      if (byte !== 0x04) {
        pasting.push(byte);
        if (++pasted === PASTE_WINDOW) {
          pasted = 0;
          write("\x01"); // room for one more window
        }
        continue;
      }
      const code = pasting;
      pasting = null;
      write("\x04"); // end of data acknowledged; the output follows as in raw mode, without "OK"
      dropOk = "OK";
      for (const b of code) step(b);
      if (step(0x04)) return reboot(bytes.subarray(i + 1));
      continue;
    }
    if (raw && (paste.length > 0 || byte === 0x05)) {
      paste += String.fromCharCode(byte);
      if (paste === "\x05A\x01") {
        paste = "";
        if (rawPaste) {
          pasting = [];
          pasted = 0;
          // The window as two bytes, little end first; both below 0x80, so UTF-8 sends them as they are.
          write("R\x01" + String.fromCharCode(PASTE_WINDOW & 0xff, PASTE_WINDOW >> 8));
        } else {
          write("R\x00"); // not supported: mpremote falls back to raw mode
        }
      } else if (!"\x05A\x01".startsWith(paste)) {
        const held = Buffer.from(paste, "latin1");
        paste = "";
        for (const b of held) if (step(b)) return reboot(bytes.subarray(i + 1));
      }
      continue;
    }
    if (step(byte)) return reboot(bytes.subarray(i + 1));
  }
  return Promise.resolve();
}

function step(byte) {
  if (byte === 0x03 && running) interrupt();
  const result = mp.replProcessChar(byte);
  if (result === 256 || (result & 0x100)) return true; // a soft reset was asked for
  if (byte === 0x04 && raw) sync(); // a command ran: its file changes reach the host folder now
  return false;
}

async function reboot(rest) {
  await softReset();
  if (rest.length) await feed(rest);
}

await boot();
runMain(); // power-on: main.py runs, as on a Pico
mp.replInit();
const server = net.createServer((conn) => {
  socket = conn;
  conn.setNoDelay(true); // the REPL is a conversation of small writes: no Nagle delays
  conn.on("data", (data) => { queue = queue.then(() => feed(Buffer.from(data))); });
  clients.push(conn);
  conn.on("close", () => {
    clients.splice(clients.indexOf(conn), 1);
    if (socket === conn) socket = clients.length ? clients[clients.length - 1] : null;
    sync();
  });
  conn.on("error", () => {});
});
server.listen(port, "127.0.0.1", () => {
  process.stdout.write("listening " + server.address().port + "\n");
});
if (control) {
  const hands = (line) => {
    mp.runPython(`import hands\n_hands_reply = hands.reply(${JSON.stringify(line)})`);
    return mp.globals.get("_hands_reply");
  };
  const reads = () => {
    mp.runPython("import devices\n_reads = devices.BENCH.reads");
    return mp.globals.get("_reads");
  };
  serveControl((line, reply) => {
    try {
      // {"press": "a", "ms": 100, "then": 300, "polls": 30}: a whole press, timed here in node, so that
      // however late the host's process is scheduled the button is held `ms` (the firmware latches
      // both edges with their times); answered once `then` ms more have passed and the firmware's
      // loop has read the buttons `polls` times since the release.
      let request = null;
      try { request = JSON.parse(line); } catch (e) { /* hands.py answers what is not JSON */ }
      if (request && typeof request.press === "string" && Number.isFinite(request.ms)) {
        const pressed = JSON.parse(hands(JSON.stringify({ press: request.press })));
        if (pressed.error) return reply(JSON.stringify(pressed));
        setTimeout(() => {
          hands(JSON.stringify({ release: request.press }));
          const released = Date.now();
          const before = reads();
          const settle = () => {
            if (Date.now() - released >= (request.then || 0) && reads() - before >= (request.polls || 0)) {
              reply(JSON.stringify({ ok: true }));
            } else if (Date.now() - released > (request.then || 0) + SETTLE_LIMIT_MS) {
              // No firmware reads its buttons (none flashed, stopped at the REPL, rebooted meanwhile):
              // said, before the host's wait for an answer runs out and leaves the line out of step.
              reply(JSON.stringify({ error: "the firmware did not read its buttons after the press (is it running?)" }));
            } else {
              setTimeout(settle, 10);
            }
          };
          settle();
        }, Math.max(0, request.ms));
        return;
      }
      reply(hands(line));
    } catch (e) {
      reply(JSON.stringify({ error: "the bench is not wired: " + String(e.message || e).split("\n").pop() }));
    }
  });
}
// Whatever stops this board, its files reach the host folder first.
function powerOff() {
  try { sync(); } catch (e) { /* a VM not booted yet has nothing to write */ }
  process.exit(0);
}
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(signal, powerOff);
if (lifeline) followParent(powerOff);
