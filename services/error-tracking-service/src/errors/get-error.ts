import type { Error as ErrorMessage } from "@quarry/proto/types/errortracking/v1/Error";
import type { ErrorRef__Output } from "@quarry/proto/types/errortracking/v1/ErrorRef";
import { idOf, recordNotFound } from "../common.ts";
import type { ErrorTrackingDeps } from "../deps.ts";
import { errorIdOf } from "./error-statuses.ts";
import { toErrorMessage } from "./list-errors.ts";

/** One of the project's errors; another project's error is as unknown as a missing one. */
export const getError =
  (deps: ErrorTrackingDeps) =>
  async (req: ErrorRef__Output): Promise<ErrorMessage> => {
    const projectId = idOf(req.projectId);
    const id = errorIdOf(req.errorId);
    const row = id ? await deps.prisma.errorTrackingError.findFirst({ where: { id, projectId } }) : null;
    if (!row) throw recordNotFound();
    return toErrorMessage(row);
  };
