import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, waitFor } from './harness.js';

/**
 * Starts nginx (one worker, like the one Node process) serving `files` as static files from a
 * temp folder, with gzip_static for the `.gz` siblings. The fair reference for serving bytes.
 */
export async function startNginx(
  dir: string,
  files: Record<string, Buffer>,
): Promise<{ url: string; child: ChildProcess }> {
  const www = join(dir, 'www');
  mkdirSync(join(dir, 'tmp'), { recursive: true });
  mkdirSync(www, { recursive: true });
  for (const [name, bytes] of Object.entries(files)) writeFileSync(join(www, name), bytes);
  const port = await freePort();
  const conf = `
worker_processes 1;
daemon off;
user root;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on; tcp_nopush on; tcp_nodelay on;
  keepalive_requests 10000000; keepalive_timeout 65;
  client_body_temp_path ${dir}/tmp/body; proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi; uwsgi_temp_path ${dir}/tmp/uwsgi; scgi_temp_path ${dir}/tmp/scgi;
  types { application/json json; application/atom+xml xml; }
  gzip_static on; gzip_vary on; etag on;
  server {
    listen 127.0.0.1:${port};
    root ${www};
    add_header Access-Control-Allow-Origin *;
  }
}`;
  writeFileSync(join(dir, 'nginx.conf'), conf);
  const child = spawn('nginx', ['-c', join(dir, 'nginx.conf'), '-p', dir], { stdio: 'inherit' });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/feed.json`);
  return { url, child };
}
