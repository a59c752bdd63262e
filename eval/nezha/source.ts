import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Reads the repository's files from a checkout, or from HEAD of a bare git directory. */
export class Source {
  readonly bare: boolean;
  readonly commit: string;

  constructor(readonly path: string) {
    this.bare = !existsSync(join(path, 'rca_data'));
    this.commit = execFileSync('git', [...this.git(), 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  }

  private git(): string[] {
    return this.bare ? ['--git-dir', this.path] : ['-C', this.path];
  }

  list(dir: string): string[] {
    if (!this.bare) return readdirSync(join(this.path, dir)).sort();
    return execFileSync('git', [...this.git(), 'ls-tree', '--name-only', `HEAD:${dir}`], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .sort();
  }

  read(file: string): string {
    if (!this.bare) return readFileSync(join(this.path, file), 'utf8');
    return execFileSync('git', [...this.git(), 'show', `HEAD:${file}`], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  }
}
