// Filled in by the database test harness; kept as a hook so every suite shares one setup.
export default async function setup(): Promise<void> {}
