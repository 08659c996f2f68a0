import type { en } from "./catalogue-en.js";

type Strings<Tree> = { [Key in keyof Tree]: Tree[Key] extends string ? string : Strings<Tree[Key]> };

/** The shape every catalogue has: the English one's keys, each with a string of its own language. */
export type Catalogue = Strings<typeof en>;
