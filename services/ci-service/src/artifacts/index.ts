export { crc32 } from "./crc32.ts";
export {
  ARTIFACTS_METADATA_HEADER,
  buildArtifactsMetadata,
  InvalidArtifactsMetadataError,
  readArtifactsMetadata,
  type ArtifactsMetadataEntry,
  type ArtifactsMetadataFields,
} from "./metadata.ts";
export { openZipEntryFromStore, readZipDirectoryFromStore, storeRangeReader } from "./object-store-zip.ts";
export { InvalidZipError, readZipDirectory, type ReadBytes, type ZipEntry } from "./zip-directory.ts";
export {
  CorruptZipEntryError,
  findZipEntry,
  InvalidArtifactPathError,
  normalizeArtifactPath,
  openZipEntry,
  UnsupportedZipEntryError,
  UnsupportedZipMethodError,
  type ReadStream,
} from "./zip-entry.ts";
