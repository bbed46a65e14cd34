// Original file: /work/main/proto/quarry/ci/v1/ci.proto


/**
 * Describes the object store ci-service writes artifacts to.
 */
export interface GetStorageInfoRequest {
}

/**
 * Describes the object store ci-service writes artifacts to.
 */
export interface GetStorageInfoRequest__Output {
}
