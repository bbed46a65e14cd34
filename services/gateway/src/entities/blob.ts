import type { FindBlobResponse__Output as Blob } from "@quarry/proto/types/repo/v1/FindBlobResponse";

/** A blob with Base64 content, as GET /repository/blobs/:sha shows it. */
export function blobEntity(b: Blob) {
  return { size: Number(b.size), encoding: "base64", content: b.data.toString("base64"), sha: b.oid };
}
