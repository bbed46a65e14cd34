// The SSH server's host key: an ed25519 key in OpenSSH format, generated on first start and kept
// (mode 0600) so clients see the same host from one start to the next.
import fs from "node:fs";
import path from "node:path";
import ssh2 from "ssh2";

export function loadOrCreateHostKey(file: string): string {
  try {
    const key = fs.readFileSync(file, "utf8");
    if (key.trim()) return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const { private: privateKey, public: publicKey } = ssh2.utils.generateKeyPairSync("ed25519", { comment: "quarry host key" });
  // Written aside and linked into place: a crash mid-write leaves no half key, and of two
  // concurrent first starts the first one's key wins.
  const scratch = `${file}.${process.pid}`;
  fs.writeFileSync(scratch, privateKey, { mode: 0o600 });
  try {
    fs.linkSync(scratch, file);
    fs.writeFileSync(`${file}.pub`, `${publicKey}\n`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    return fs.readFileSync(file, "utf8");
  } finally {
    fs.rmSync(scratch, { force: true });
  }
  return privateKey;
}
