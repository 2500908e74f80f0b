// The library of saved captions.
