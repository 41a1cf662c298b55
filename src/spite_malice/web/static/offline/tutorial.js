// The tutorial with no network (docs/offline.md): a lesson's answer comes from the offline
// engine, which runs the same lessons as the server. Progress is kept only online.

import { offlineInstalled, offlineLesson } from "./client.js";

const LESSON = /^\/api\/tutorial\/lessons\/([^/?]+)$/;

/** The answer to the tutorial's POST `path` when the server could not be reached; `error`
 * (the failed fetch's) again when the offline engine cannot answer it. */
export async function offlinePost(path, body, error) {
  const lesson = path.match(LESSON);
  if (!lesson || !(await offlineInstalled())) throw error;
  try {
    return await offlineLesson(decodeURIComponent(lesson[1]), body ?? {});
  } catch (refused) {
    throw new Error(refused?.message ?? String(refused));
  }
}
