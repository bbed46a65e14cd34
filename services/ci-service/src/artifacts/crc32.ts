// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320) as used by zip and gzip. Node 20's zlib
// does not expose one (zlib.crc32 arrived in Node 22.2).

const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/**
 * The CRC-32 of `data`, continuing from `previous` (the CRC of everything before it; 0 to
 * start): `crc32(b, crc32(a)) === crc32(concat(a, b))`, so a stream is checked chunk by chunk.
 */
export function crc32(data: Uint8Array, previous = 0): number {
  let crc = ~previous;
  for (let i = 0; i < data.length; i++) crc = TABLE[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  return ~crc >>> 0;
}
