// Original file: /work/main/proto/quarry/repo/v1/repo.proto


/**
 * Empty reply.
 */
export interface SetDefaultBranchResponse {
}

/**
 * Empty reply.
 */
export interface SetDefaultBranchResponse__Output {
}
