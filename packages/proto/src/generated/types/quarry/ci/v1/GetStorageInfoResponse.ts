// Original file: /work/main/proto/quarry/ci/v1/ci.proto


/**
 * Where artifacts go.
 */
export interface GetStorageInfoResponse {
  /**
   * "local" or "minio".
   */
  'kind'?: (string);
  /**
   * Bucket name for artifacts.
   */
  'artifactsBucket'?: (string);
  /**
   * Whether the store can hand out presigned download URLs.
   */
  'canPresign'?: (boolean);
}

/**
 * Where artifacts go.
 */
export interface GetStorageInfoResponse__Output {
  /**
   * "local" or "minio".
   */
  'kind': (string);
  /**
   * Bucket name for artifacts.
   */
  'artifactsBucket': (string);
  /**
   * Whether the store can hand out presigned download URLs.
   */
  'canPresign': (boolean);
}
