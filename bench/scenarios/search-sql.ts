// Runs a multi-statement SQL script on the raw driver of the app's database (the search bench's seed).
import { database } from "../../lib/db/client";

export async function rawExec(sql: string): Promise<void> {
  const d = await database();
  if (d.pglite) await d.pglite.exec(sql);
  else if (d.pool) await d.pool.query(sql);
  else throw new Error("the database has no raw driver");
}
