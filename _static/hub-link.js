// The nbgitpuller link builder on "Teach with this book": an instructor types their hub's
// address and gets the link that clones this repository into each student's home and
// opens the lab. Same rules as attention_scaling.launch.nbgitpuller_link (Python), which
// tests/book/test_launch.py checks this against. No network, no dependencies.
(() => {
  const BAD_BRANCH = /[\s~^:?*[\\]/;

  // urllib.parse.quote_plus(text, safe="/"): UTF-8 bytes, unreserved kept, space as "+".
  function quotePlus(text) {
    let out = "";
    for (const byte of new TextEncoder().encode(text)) {
      const c = String.fromCharCode(byte);
      if (/[A-Za-z0-9_.\-~/]/.test(c)) out += c;
      else if (byte === 0x20) out += "+";
      else out += "%" + byte.toString(16).toUpperCase().padStart(2, "0");
    }
    return out;
  }

  function text(value, name) {
    if (value === null || value === undefined) return "";
    if (typeof value !== "string") throw new Error(`${name} must be a string`);
    return value.trim();
  }

  function nbgitpullerLink(hub, repo, branch, path) {
    hub = text(hub, "hub").replace(/\/+$/, "");
    if (!/^https?:\/\/[^/?#]+[^?#]*$/i.test(hub) || /\s/.test(hub))
      throw new Error(`hub must be the hub's http(s) address, like https://hub.your-university.edu, got "${hub}"`);
    repo = text(repo, "repo");
    const name = repo.replace(/\/+$/, "").split("/").pop();
    if (!repo || /\s/.test(repo) || ["", ".", ".."].includes(name) || name.includes(":"))
      throw new Error(`repo must be a git URL ending in the repository's name, got "${repo}"`);
    branch = text(branch, "branch");
    if (!branch || BAD_BRANCH.test(branch))
      throw new Error(`branch must be a git branch name, got "${branch}"`);
    path = text(path, "path");
    if (!path || /[\\\s]/.test(path) || path.startsWith("/")
        || path.split("/").some(s => ["", ".", ".."].includes(s)))
      throw new Error(`path must be a file's path inside the repository, like notebooks/lab.ipynb, got "${path}"`);
    const query = [["repo", repo], ["urlpath", `lab/tree/${name}/${path}`], ["branch", branch]]
      .map(([key, value]) => `${key}=${quotePlus(value)}`).join("&");
    return `${hub}/hub/user-redirect/git-pull?${query}`;
  }

  window.asbHubLink = { nbgitpullerLink, quotePlus };

  document.addEventListener("DOMContentLoaded", () => {
    for (const form of document.querySelectorAll("form.asb-hub-link")) {
      const out = form.querySelector("output");
      const field = n => form.querySelector(`[name="${n}"]`);
      const update = () => {
        try {
          out.textContent = nbgitpullerLink(field("hub").value, field("repo").value,
                                            field("branch").value, field("path").value);
          out.classList.remove("asb-hub-link-error");
        } catch (err) {
          out.textContent = field("hub").value.trim() ? err.message : "";
          out.classList.add("asb-hub-link-error");
        }
      };
      form.addEventListener("input", update);
      form.addEventListener("submit", event => { event.preventDefault(); update(); });
      update();
    }
  });
})();
