// Every explorer's view, by the name of its mount function: what the book's player.js mounts
// from the classic bundle of this module, and what widget.js mounts in Jupyter.
import {mountAttention} from "./attention_view.js";
import {mountContext} from "./context_view.js";
import {mountNormalization} from "./normalization_view.js";
import {mountScale} from "./scale_view.js";

export const MOUNTS = {mountScale, mountContext, mountAttention, mountNormalization};
