/**
 * `npm run serve`: the service without a window, in plain Node.
 *   --data DIR   data directory (default: ./kb-data)
 *   --port N     port, 0 for a free one (default: 8787)
 *   --host H     address to listen on (default: 127.0.0.1)
 *   --cors-origins LIST   origins whose web pages may call the openapi routes: `*` (default) or
 *                         origins separated by commas (env KB_CORS_ORIGINS)
 *   --debug-signatures    a wrong signature's answer shows the string to sign, secrets masked
 *                         (env KB_DEBUG_SIGNATURES=1)
 *   --public-host NAMES   host names (separated by commas) the editor answers to besides the
 *                         service's own addresses: a team server behind a load balancer
 *                         (env KB_PUBLIC_HOSTS)
 *   --trust-proxy LIST    addresses or CIDR ranges of the load balancers whose X-Forwarded-For
 *                         names the client (env KB_TRUST_PROXY)
 *   --database URL        a postgres:// URL: run as a node of a team server on PostgreSQL
 *                         instead of the embedded store (env KB_DATABASE_URL; docs/team-server.md)
 *   --team       a team server: editors sign in with an administrator's username and password
 *                and each sees only their own tenant (env KB_TEAM=1)
 *   --session-idle MINUTES   a signed-in editor's session ends after this long unused (30)
 *   --session-max MINUTES    and this long after signing in, however used (720)
 *   --embeddings BASE     the default embedding provider of robots that use the default
 *                         (env KB_EMBEDDINGS; docs/matching.md, "Fusion with an embedding model"),
 *   --embedding-model M   --embedding-api openai|ollama   --embedding-timeout MS (300)
 *                         (env KB_EMBEDDING_MODEL, KB_EMBEDDING_API, KB_EMBEDDING_TIMEOUT_MS;
 *                         its API key only from the environment: KB_EMBEDDING_KEY)
 *   --memory-budget SIZE  bytes of matching indexes kept (512MB, 2GB, none): robots are loaded
 *                         when first asked, the least recently asked let go (env KB_MEMORY_BUDGET;
 *                         default none on the desktop, half the machine's memory on a team node)
 * Environment: KB_CUSTOMER_ID, KB_ADMIN_KEY, KB_ADMIN_SECRET (all three) override the stored
 * credentials; KB_SNAPSHOT_BYTES sets the journal size that triggers a snapshot (tuning, tests);
 * KB_QUESTION_LOG=0 turns the question log off. All of it is read in service/config.ts.
 * @module
 */
import { openBackend } from './service/backend/open-backend';
import { serveOptions, serviceConfig } from './service/config';
import { createService } from './service/index';
import { createConsoleLogger } from './service/logger';
import { resolveEditorDir } from './editor-dir';

async function main(): Promise<void> {
  const logger = createConsoleLogger();
  const config = serviceConfig({
    ...serveOptions(process.argv.slice(2)),
    logger,
    editorDir: resolveEditorDir(),
  });
  const service = await createService(await openBackend(config), config);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: stopping`);
    service.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error('could not stop cleanly', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  console.log(`editor: ${service.editorUrl}`);
  // Printed last: whoever waits for this line may signal the process at once.
  console.log(`listening on ${service.url}`);
}

main().catch((error: unknown) => {
  console.error(`kb-studio: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
