# A/A control (fish): a snippet that does nothing.
true
