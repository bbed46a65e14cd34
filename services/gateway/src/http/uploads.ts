// Multipart bodies with file parts. The one place file parts are read (avatars now; project
// uploads and wiki attachments later): a route declares which file fields it takes and how many
// bytes of each it wants; everything else keeps refusing file parts.
import type { Request, RequestHandler } from "express";
import multer, { type StorageEngine } from "multer";

/** A file field a route takes, and the most bytes of it that are kept. */
export interface FileField {
  name: string;
  /** Bytes kept in memory; the rest of the part is read and dropped (the file is then `truncated`). */
  maxBytes: number;
}

/** A route (method and full path, e.g. `/api/v4/users/1`) whose multipart bodies may carry files. */
export interface FileRoute {
  method: string;
  path: RegExp;
  files: FileField[];
}

/** A file part as the route sees it. */
export interface UploadedFile {
  /** The form field. */
  field: string;
  /** The file name the client sent (UTF-8), as given. */
  filename: string;
  /** The part's declared Content-Type (informational: never trusted). */
  mimeType: string;
  /** The first `maxBytes` bytes of the part. */
  data: Buffer;
  /** Whether the part was longer than `maxBytes` (then `data` holds `maxBytes` bytes). */
  truncated: boolean;
}

type StoredFile = Express.Multer.File & { upload?: UploadedFile };

/**
 * Keeps at most `maxBytes` of each file in memory while the part streams in and drains the rest,
 * so a part never costs more memory than its field allows, whatever its length.
 */
function boundedMemoryStorage(limits: Map<string, number>): StorageEngine {
  return {
    _handleFile(_req, file, cb) {
      const max = limits.get(file.fieldname) ?? 0;
      const chunks: Buffer[] = [];
      let kept = 0;
      let truncated = false;
      file.stream.on("data", (chunk: Buffer) => {
        if (kept >= max) {
          truncated = truncated || chunk.length > 0;
          return;
        }
        const take = Math.min(chunk.length, max - kept);
        if (take < chunk.length) truncated = true;
        chunks.push(take === chunk.length ? chunk : chunk.subarray(0, take));
        kept += take;
      });
      file.stream.on("error", (err) => cb(err));
      file.stream.on("end", () => {
        const upload: UploadedFile = { field: file.fieldname, filename: file.originalname, mimeType: file.mimetype, data: Buffer.concat(chunks), truncated };
        cb(null, { size: kept, upload } as Partial<StoredFile>);
      });
    },
    _removeFile(_req, _file, cb) {
      cb(null);
    },
  };
}

/**
 * The multipart body parser: fields into `req.body` (as before), file parts only on the routes
 * that take them (into `uploadedFile`), each bounded while streaming (past the body limit, 413). A file part anywhere else,
 * or in another field, stays `400 Bad request` (multer's LIMIT_UNEXPECTED_FILE, see errors.ts);
 * whatever stops the parser (no boundary, a truncated body, a limit) is the client's: 400 or 413.
 */
export function multipartParser(o: { fieldSize: number; routes: FileRoute[] }): RequestHandler {
  // A file part longer than the largest body is refused as the body would be (413), not drained.
  const fieldsOnly = multer({ limits: { fieldSize: o.fieldSize, fileSize: o.fieldSize } }).none();
  const withFiles = o.routes.map((route) => ({
    route,
    handler: multer({
      storage: boundedMemoryStorage(new Map(route.files.map((f) => [f.name, f.maxBytes]))),
      limits: { fieldSize: o.fieldSize, fileSize: o.fieldSize, files: route.files.length },
      defParamCharset: "utf8",
    }).fields(route.files.map((f) => ({ name: f.name, maxCount: 1 }))),
  }));
  return (req, res, next) => {
    const match = withFiles.find(({ route }) => route.method === req.method && route.path.test(req.path));
    (match?.handler ?? fieldsOnly)(req, res, (err?: unknown) =>
      next(err && !(err as { status?: unknown }).status ? Object.assign(err as object, { status: 400 }) : err),
    );
  };
}

/** The file part sent in `field`, if the route takes it and the client sent one. */
export function uploadedFile(req: Request, field: string): UploadedFile | undefined {
  const files = req.files as Record<string, StoredFile[]> | undefined;
  if (!files || Array.isArray(files)) return undefined;
  return files[field]?.[0]?.upload;
}
