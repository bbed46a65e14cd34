// Original file: /work/main/proto/quarry/identity/v1/identity.proto


/**
 * An empty reply.
 */
export interface Empty {
}

/**
 * An empty reply.
 */
export interface Empty__Output {
}
