// Original file: /work/main/proto/quarry/repo/v1/repo.proto


/**
 * Empty reply.
 */
export interface DeleteRepositoryResponse {
}

/**
 * Empty reply.
 */
export interface DeleteRepositoryResponse__Output {
}
