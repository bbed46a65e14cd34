// Multipart bodies with file parts. The one place file parts are read (avatars, project uploads;
// wiki attachments later): a route declares which file fields it takes and how many bytes of each
// it wants by putting `acceptFiles(...)` in its handlers; everything else keeps refusing file parts.
import type { Request, RequestHandler } from "express";
import multer, { type StorageEngine } from "multer";

/** A file field a route takes, and the most bytes of it that are kept. */
export interface FileField {
  name: string;
  /**
   * Bytes kept in memory; the rest of the part is read and dropped (the file is then `truncated`).
   * A function is read for every part (a limit from the application settings, which may change).
   */
  maxBytes: number | (() => number);
}

const FILE_FIELDS = Symbol("fileFields");
type Declaration = RequestHandler & { [FILE_FIELDS]?: FileField[] };

/**
 * The file fields a route takes: put it among the route's handlers
 * (`r.put("/users/:id", acceptFiles([{ name: "avatar", maxBytes }]), …)`). It does nothing when
 * called; the parser finds it on the route before the body is read (see declaredFiles).
 */
export function acceptFiles(files: FileField[]): RequestHandler {
  const declaration: Declaration = (_req, _res, next) => next();
  declaration[FILE_FIELDS] = files;
  return declaration;
}

/** The parts of express's router (package `router`) that routing a path needs. */
interface RouterLike {
  stack: {
    match(path: string): { path: string } | false;
    handle: unknown;
    route?: { stack: { handle: Declaration }[]; _handlesMethod(method: string): boolean };
  }[];
}

/**
 * The file fields declared by the route that will answer `method path`: the router is walked as
 * express will walk it (mounted routers with their prefix stripped), and the first route taking
 * the method decides (null: it takes no files). Undefined when no route matches.
 */
export function declaredFiles(router: RouterLike, method: string, path: string): FileField[] | null | undefined {
  for (const layer of router.stack) {
    const matched = layer.match(path);
    if (!matched) continue;
    if (layer.route) {
      if (!layer.route._handlesMethod(method)) continue;
      return layer.route.stack.find((l) => l.handle[FILE_FIELDS])?.handle[FILE_FIELDS] ?? null;
    }
    const sub = layer.handle as Partial<RouterLike> | null;
    if (!sub || !Array.isArray(sub.stack)) continue;
    const found = declaredFiles(sub as RouterLike, method, path.slice(matched.path.length) || "/");
    if (found !== undefined) return found;
  }
  return undefined;
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
function boundedMemoryStorage(files: FileField[]): StorageEngine {
  return {
    _handleFile(_req, file, cb) {
      const field = files.find((f) => f.name === file.fieldname);
      const max = !field ? 0 : typeof field.maxBytes === "function" ? field.maxBytes() : field.maxBytes;
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
 * The multipart body parser: fields into `req.body` (as before), file parts only for the routes
 * that declare them with acceptFiles (into `uploadedFile`), each bounded while streaming (past
 * the body limit, 413). `router` is the application's router, looked up before the body is read.
 * A file part anywhere else, or in another field, stays `400 Bad request` (multer's
 * LIMIT_UNEXPECTED_FILE, see errors.ts); whatever stops the parser (no boundary, a truncated
 * body, a limit) is the client's: 400 or 413.
 */
export function multipartParser(o: { fieldSize: number; router: () => object }): RequestHandler {
  // A file part longer than the largest body is refused as the body would be (413), not drained.
  const fieldsOnly = multer({ limits: { fieldSize: o.fieldSize, fileSize: o.fieldSize } }).none();
  // One parser per declaration (acceptFiles is called once per route, when routers are built).
  const withFiles = new WeakMap<FileField[], RequestHandler>();
  const parserFor = (files: FileField[]) => {
    let handler = withFiles.get(files);
    if (!handler) {
      handler = multer({
        storage: boundedMemoryStorage(files),
        limits: { fieldSize: o.fieldSize, fileSize: o.fieldSize, files: files.length },
        defParamCharset: "utf8",
      }).fields(files.map((f) => ({ name: f.name, maxCount: 1 })));
      withFiles.set(files, handler);
    }
    return handler;
  };
  return (req, res, next) => {
    // express's typings leave out Layer#match, which the router package has (router 2.x).
    const files = declaredFiles(o.router() as RouterLike, req.method, req.path);
    (files ? parserFor(files) : fieldsOnly)(req, res, (err?: unknown) =>
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
