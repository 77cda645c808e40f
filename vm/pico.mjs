// A virtual Pico on a TCP port: its REPL is the real MicroPython VM, its flash a host folder.
//
//   node vm/pico.mjs --files DIR [--mount HOST_DIR:VM_DIR]... [--port N]
//
// Prints "listening PORT" when ready; then `mpremote connect socket://127.0.0.1:PORT ...`
// copies files, lists, runs code and soft-resets as on a board. What it does for mpremote:
// - bytes go one by one to the VM's REPL (friendly and raw REPL are the VM's own);
// - the raw-paste request (Ctrl-E "A" Ctrl-A) is answered "R\x00" (not supported), so mpremote
//   falls back to plain raw mode, since the VM does not return from it;
// - a soft reset (Ctrl-D on an empty raw REPL, or at the friendly prompt) starts a fresh VM with
//   the same files, prints "MPY: soft reboot", and in friendly mode runs main.py as a Pico does;
// - the VM's files are DIR's files: loaded at every (re)boot, written back after every command.
// Mounted folders (e.g. the virtual `machine`) are on sys.path but are not the device's files.
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

const args = process.argv.slice(2);
let filesDir = null;
let port = 0;
const mounts = [];
for (let i = 0; i < args.length; i += 2) {
  if (args[i] === "--files") filesDir = path.resolve(args[i + 1]);
  else if (args[i] === "--port") port = Number(args[i + 1]);
  else if (args[i] === "--mount") {
    const cut = args[i + 1].lastIndexOf(":");
    mounts.push([args[i + 1].slice(0, cut), args[i + 1].slice(cut + 1)]);
  } else {
    process.stderr.write("usage: node vm/pico.mjs --files DIR [--mount HOST:VM]... [--port N]\n");
    process.exit(2);
  }
}
if (!filesDir) {
  process.stderr.write("vm/pico.mjs: --files DIR is required\n");
  process.exit(2);
}
fs.mkdirSync(filesDir, { recursive: true });

const SYSTEM = new Set(["tmp", "home", "dev", "proc", ...mounts.map(([, vm]) => vm.split("/").filter(Boolean)[0])]);
const decoder = new TextDecoder();
let socket = null;
let mp = null;
let raw = false; // in raw REPL
let recent = ""; // the tail of the output, to see the REPL's mode
let paste = ""; // bytes of a possible raw-paste request

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
  const text = typeof data === "string" ? data : decoder.decode(data);
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
  if (!out) return;
  recent = (recent + out).slice(-64);
  if (recent.endsWith("raw REPL; CTRL-B to exit\r\n>")) raw = true;
  if (recent.endsWith("\r\n>>> ")) raw = false;
  if (socket) socket.write(Buffer.from(out, "latin1"));
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

async function boot() {
  mp = await loadMicroPython({ stdout: write, stderr: write, linebuffer: false });
  deviceFiles = true;
  load(filesDir, "/", (name) => !SYSTEM.has(name));
  deviceFiles = false;
  for (const [hostDir, vmDir] of mounts) load(hostDir, vmDir, null);
  mp.runPython(["import sys", ...mounts.map(([, vm]) => `sys.path.append(${JSON.stringify(vm)})`)].join("\n"));
}

async function softReset() {
  sync();
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
  if (fs.existsSync(path.join(filesDir, "main.py"))) {
    try {
      mp.runPython("exec(open('main.py').read(), {'__name__': '__main__'})");
    } catch (e) {
      write(String(e.message || e).replace(/\n/g, "\r\n") + "\r\n");
    }
  }
  mp.replInit();
}

let queue = Promise.resolve();
// Bytes go to the VM synchronously, in the socket's own callback: the VM's REPL must not be
// entered from an awaited continuation. Only a soft reset waits (for the fresh VM).
function feed(bytes) {
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (raw && (paste.length > 0 || byte === 0x05)) {
      paste += String.fromCharCode(byte);
      if (paste === "\x05A\x01") {
        write("R\x00"); // raw-paste: not supported here; mpremote falls back to raw mode
        paste = "";
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
mp.replInit();
const server = net.createServer((conn) => {
  socket = conn;
  conn.on("data", (data) => { queue = queue.then(() => feed(Buffer.from(data))); });
  conn.on("close", () => { if (socket === conn) socket = null; sync(); });
  conn.on("error", () => {});
});
server.listen(port, "127.0.0.1", () => {
  process.stdout.write("listening " + server.address().port + "\n");
});
process.on("SIGTERM", () => { sync(); process.exit(0); });
