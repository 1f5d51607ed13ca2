// Packs what the Dawn benchmarks need on a bare x86-64 Linux machine that has a GPU but no Node.js and no registry
// (the `device` machines): this Node.js binary, the `node_modules` the benchmarks load (tsx, Dawn's `webgpu` with
// only its linux-x64 binary, weft's runtime dependencies) and the Vulkan loader package. The repository itself
// travels beside the archive; `bench/real-gpu/run.sh` unpacks it there and runs the benchmarks.
//
//   npm run bench:pack-gpu         writes .gpu-bench/weft-bench-linux-x64.tar.xz (ignored by git)
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const outDir = join(root, '.gpu-bench');
const archive = join(outDir, 'weft-bench-linux-x64.tar.xz');
const staging = join(outDir, 'staging');
/** The tree that travels to a device machine is limited to 64 MiB; the repository takes about 6 of them. */
const archiveLimitBytes = 52 * 1024 * 1024;
/** Packages the benchmarks load besides weft's own runtime dependencies. */
const benchPackages = ['tsx', 'webgpu'];
/** Dawn ships a binary per platform; only linux-x64 runs there. */
const webgpuDistKept = 'linux-x64';
/**
 * Dawn loads `libvulkan.so.1` at run time, and NVIDIA's Vulkan driver (`libGLX_nvidia.so.0`) hands out no
 * `vkCreateInstance` without glvnd's libraries beside it (seen on the H200 machine: "Could not get 'vkCreateInstance'
 * via 'vk_icdGetInstanceProcAddr'"); the CUDA image has neither.
 */
const vulkanPackages = ['libvulkan1', 'libglvnd0', 'libglx0', 'libgl1', 'libegl1', 'libgles2', 'libopengl0'];

/** What those packages hold that the Vulkan path needs, copied from this machine when apt-get cannot download. */
const loaderLibraries = ['libvulkan.so.1', 'libGLdispatch.so.0', 'libGLX.so.0'];

interface PackageJson {
  name: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

function readPackageJson(dir: string): PackageJson {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
}

/** Node's lookup: `node_modules/<name>` in the package's own folder, then in each folder above it up to the root. */
function resolvePackageDir(fromDir: string, name: string): string | null {
  let dir = fromDir;
  for (;;) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === root) return null;
    dir = dirname(dir);
    // A scoped package sits one folder deeper (node_modules/@scope/name); skip the `node_modules` and scope folders.
    while (dir !== root && (dir.endsWith('node_modules') || dir.split('/').pop()?.startsWith('@'))) dir = dirname(dir);
  }
}

/** Every installed package the given ones need, each once, as folders under `root`. */
function dependencyClosure(names: readonly string[]): string[] {
  const found = new Set<string>();
  const pending: [string, string, boolean][] = names.map((name) => [root, name, false]);
  while (pending.length) {
    const [fromDir, name, optional] = pending.pop() as [string, string, boolean];
    const dir = resolvePackageDir(fromDir, name);
    if (!dir) {
      if (optional) continue; // another platform's binary, not installed here
      throw new Error(`pack: ${name} (needed from ${relative(root, fromDir) || 'weft'}) is not installed; run npm ci`);
    }
    if (found.has(dir)) continue;
    found.add(dir);
    const pkg = readPackageJson(dir);
    for (const dep of Object.keys(pkg.dependencies ?? {})) pending.push([dir, dep, false]);
    for (const dep of Object.keys(pkg.optionalDependencies ?? {})) pending.push([dir, dep, true]);
  }
  return [...found].sort();
}

function copyTree(from: string, to: string, skip: (path: string) => boolean): void {
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    if (skip(source)) continue;
    const target = join(to, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === 'node_modules') continue; // nested packages are copied on their own when needed
      copyTree(source, target, skip);
    } else if (entry.isFile()) {
      mkdirSync(to, { recursive: true });
      copyFileSync(source, target);
    }
  }
}

function downloadVulkanLoader(into: string): string {
  mkdirSync(into, { recursive: true });
  // The device README's recipe: amd64 package lists of their own, so this works on any host that has apt.
  const lists = join(tmpdir(), 'weft-pack-apt-lists');
  mkdirSync(join(lists, 'partial'), { recursive: true });
  const options = ['-oAPT::Architecture=amd64', '-oAPT::Architectures=amd64', `-oDir::State::Lists=${lists}`];
  try {
    execFileSync('apt-get', [...options, '-qq', 'update'], { stdio: 'inherit' });
    execFileSync('apt-get', [...options, 'download', ...vulkanPackages], { cwd: into, stdio: 'inherit' });
    return `downloaded ${readdirSync(into).join(', ')}`;
  } catch (error) {
    const libDir = '/usr/lib/x86_64-linux-gnu';
    const missing = loaderLibraries.filter((name) => !existsSync(join(libDir, name)));
    if (missing.length)
      throw new Error(
        `pack: could not download ${vulkanPackages.join(', ')} with apt-get (${(error as Error).message}) and ${missing.join(', ')} are not installed here either`,
      );
    mkdirSync(join(into, 'lib'), { recursive: true });
    for (const name of loaderLibraries) copyFileSync(join(libDir, name), join(into, 'lib', name));
    return `apt-get download failed; copied this machine's ${loaderLibraries.join(', ')}`;
  }
}

function main(): void {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new Error(`pack: the device machines are linux-x64 and this Node.js is ${process.platform}-${process.arch}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(join(staging, 'bin'), { recursive: true });
  copyFileSync(process.execPath, join(staging, 'bin', 'node'));

  const runtime = Object.keys(readPackageJson(root).dependencies ?? {});
  const packages = dependencyClosure([...runtime, ...benchPackages]);
  const webgpuDist = join(root, 'node_modules', 'webgpu', 'dist');
  for (const dir of packages) {
    copyTree(dir, join(staging, relative(root, dir)), (path) => {
      if (dirname(path) === webgpuDist) return !path.endsWith(webgpuDistKept);
      return path === join(root, 'node_modules', 'webgpu', 'build');
    });
  }
  const vulkan = downloadVulkanLoader(join(staging, 'vulkan'));
  writeFileSync(
    join(staging, 'PACKED.txt'),
    [
      `node ${process.version} (${process.execPath})`,
      `packages: ${packages.map((dir) => relative(join(root, 'node_modules'), dir)).join(' ')}`,
      `vulkan: ${vulkan}`,
      '',
    ].join('\n'),
  );

  rmSync(archive, { force: true });
  execFileSync('tar', ['-C', staging, '-cf', archive, '-I', 'xz -6 -T0', '.'], { stdio: 'inherit' });
  rmSync(staging, { recursive: true, force: true });
  const size = statSync(archive).size;
  const mib = (size / 1024 / 1024).toFixed(1);
  if (size > archiveLimitBytes)
    throw new Error(
      `pack: ${relative(root, archive)} is ${mib} MiB, over the ${archiveLimitBytes / 1024 / 1024} MiB that fit`,
    );
  console.log(`${relative(root, archive)}: ${mib} MiB, ${packages.length} packages, Vulkan loader ${vulkan}`);
  console.log('Run it on the device machine: bash bench/real-gpu/run.sh (carry .gpu-bench)');
}

main();
