(() => {
    const gonb_comm = globalThis?.gonb_comm;
    if (!gonb_comm) {
        console.error("Communication to GoNB not set up: the text input will not synchronise with the program.");
        return;
    }
    const input = document.getElementById({{.HtmlId}});
    if (!input) {
        console.error("No text input with id " + {{.HtmlId}} + " in the page.");
        return;
    }
    // Jupyter Notebook's command mode would take the letters typed here as
    // keyboard shortcuts: let the input keep its keys, as ipywidgets do.
    globalThis?.Jupyter?.keyboard_manager?.register_events(input);
    const text = gonb_comm.newSyncedVariable({{.Address}}, input.value);
    const commit = () => {
        input.setAttribute("value", input.value); // makes the value part of outerHTML, as GoNB's slider does
        text.set(input.value);
    };
    // A text is sent when the reader presses Enter or leaves the box, not
    // at every key: each send redraws whatever follows the input.
    input.addEventListener("change", commit);
    input.addEventListener("keydown", (event) => {
        if (event.key === "Enter") {
            commit();
        }
    });
    text.subscribe((value) => {
        input.value = value;
        input.setAttribute("value", value);
    });
})();
