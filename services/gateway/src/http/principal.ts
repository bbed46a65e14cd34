// Who a request acts as: the authenticated caller (auth.ts, job-token.ts) as routes see it on
// req.principal. Its own module so that deps.ts, auth.ts and job-token.ts share it without a cycle.
export interface Principal {
  userId: number;
  username: string;
  /** Display name and e-mail: push events carry them. */
  name: string;
  email: string;
  isAdmin: boolean;
  tokenId: number;
  scopes: string[];
  /** Set when the caller authenticated with a running job's CI_JOB_TOKEN. */
  jobToken?: { jobId: number; projectId: number };
  /** Set when an administrator's token acts as this user through Sudo: that administrator's id. */
  sudoBy?: number;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- express's own augmentation point
  namespace Express {
    interface Request {
      /** The authenticated caller, or undefined for anonymous requests. */
      principal?: Principal;
      requestId: string;
      /** The raw body of an application/x-www-form-urlencoded request. */
      rawForm?: Buffer;
    }
  }
}
