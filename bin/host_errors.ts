/**
 * Node's file-system errors in words, one line naming the file (the CLI's last resort for errors
 * no command turned into a message of its own). No imports: bin/cli.ts loads it at start-up.
 */
const REASONS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory',
  ENOTDIR: 'a component of the path is not a directory',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  EEXIST: 'already exists',
  ENOTEMPTY: 'directory not empty',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'name too long',
  EXDEV: 'on another file system',
};

/** The reason of a Node file-system error in words (its code when unknown). */
export function reason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  return (code && REASONS[code]) ?? (e as Error).message;
}

/** A Node system error as one line naming its file ("FILE: no such file or directory"), or null. */
export function hostErrorMessage(e: unknown): string | null {
  const x = e as NodeJS.ErrnoException;
  if (!(e instanceof Error) || typeof x.code !== 'string' || typeof x.syscall !== 'string') return null;
  return x.path !== undefined ? `${x.path}: ${reason(e)}` : `${x.syscall}: ${reason(e)}`;
}
