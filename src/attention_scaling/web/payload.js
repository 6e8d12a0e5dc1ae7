// A payload's numbers travel as the bytes of float64 arrays, base64-encoded (little-endian):
// exactly the package's doubles, in about half the characters of their decimal text
// (attention_scaling.web.pack). unpack() gives them back as arrays; a payload already
// unpacked, or written as plain arrays, passes through.
const unpacked = new WeakMap();

export function floats(text) {
  const bytes = Uint8Array.from(atob(text), c => c.charCodeAt(0));
  const view = new DataView(bytes.buffer);
  return Array.from({length: bytes.length / 8}, (_, i) => view.getFloat64(8 * i, true));
}

function rows(flat, width) {
  return Array.from({length: flat.length / width}, (_, r) => flat.slice(r * width, (r + 1) * width));
}

// {seed, z, draws, nice} with z a list of n scores and draws a list of rows of n
export function unpack(payload) {
  if (typeof payload.z !== "string") return payload;
  if (!unpacked.has(payload)) {
    const z = floats(payload.z);
    unpacked.set(payload, {...payload, z, draws: rows(floats(payload.draws), z.length)});
  }
  return unpacked.get(payload);
}
