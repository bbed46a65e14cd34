import type { GpgKey__Output as GpgKey } from "@quarry/proto/types/identity/v1/GpgKey";

/** Entities::GpgKey: id, key, created_at. */
export function gpgKeyEntity(k: GpgKey) {
  return { id: Number(k.id), key: k.key, created_at: k.createdAt };
}
