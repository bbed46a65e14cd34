import { ServiceError, status } from "@quarry/grpc";
import type { Error as ErrorMessage } from "@quarry/proto/types/errortracking/v1/Error";
import type { UpdateErrorRequest__Output } from "@quarry/proto/types/errortracking/v1/UpdateErrorRequest";
import { idOf, recordNotFound } from "../common.ts";
import type { ErrorTrackingDeps } from "../deps.ts";
import { errorIdOf, isErrorStatus } from "./error-statuses.ts";
import { toErrorMessage } from "./list-errors.ts";

/**
 * Resolves, ignores or reopens an error (what Sentry's and GitLab's error pages do). A resolved
 * error that receives another event is unresolved again (collect-events.ts); an ignored one stays.
 */
export const updateError =
  (deps: ErrorTrackingDeps) =>
  async (req: UpdateErrorRequest__Output): Promise<ErrorMessage> => {
    const projectId = idOf(req.projectId);
    if (!isErrorStatus(req.status)) throw new ServiceError(status.INVALID_ARGUMENT, { error: "status does not have a valid value" });
    const id = errorIdOf(req.errorId);
    // One statement: the project check and the write cannot be split by a concurrent delete.
    const updated = id ? await deps.prisma.errorTrackingError.updateManyAndReturn({ where: { id, projectId }, data: { status: req.status } }) : [];
    const [row] = updated;
    if (!row) throw recordNotFound();
    return toErrorMessage(row);
  };
