// Exercises that need a live kernel carry a note (added at build time). Here the note gets
// the page's own launch links, copied from its launch menu, so one click opens the page live.
document.addEventListener("DOMContentLoaded", () => {
  const links = [...document.querySelectorAll(".dropdown-launch-buttons a.dropdown-item")];
  if (!links.length) return;
  for (const note of document.querySelectorAll(".asb-needs-kernel")) {
    const span = document.createElement("span");
    span.className = "asb-launch-links";
    span.append(" Launch this page: ");
    links.forEach((a, i) => {
      const copy = document.createElement("a");
      copy.href = a.href;
      copy.textContent = a.textContent.trim();
      if (i) span.append(" · ");
      span.append(copy);
    });
    note.append(span);
  }
});
